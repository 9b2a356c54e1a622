"""Pictures whose information is only in the pixels: AndroidWorld's text images (``user_data_generation._draw_text``)
and receipts (``task_evals/utils/receipt_generator.py``), drawn with Pillow from seeded parameters.

Parameters and pictures are kept apart: ``receipt_params`` draws everything random into plain data a task keeps
in its ``params``; ``receipt_image`` and ``text_image`` render deterministically from that data, so pinned
params pin the exact bytes pushed to the device. Text uses Pillow's bundled font (AndroidWorld's fallback when
Arial and friends are missing), the same on every machine; single lines are put together from per-character masks
(``glyph_masks``), the same pixels as Pillow draws them. Black on white, the pictures are drawn grey (``L``: Pillow
blends each channel alike, so a third of the work) and handed out as RGB, as AndroidWorld draws them.
"""

from __future__ import annotations

import datetime as dt
import io
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from android_gym.sim.ui.glyph_masks import draw_line, line_box
from android_gym.sim.ui.layout import font
from android_gym.tasks.base import DEVICE_TIME
from android_gym.tasks.user_data import pick

#: Receipt items and their price ranges in dollars (``_random_transaction``).
RECEIPT_ITEMS = {"USB-C Cable": (5, 20), "Wireless Mouse": (10, 50), "Bluetooth Keyboard": (30, 100),
                 "External Hard Drive": (50, 150), "Webcam": (20, 70), "Monitor Stand": (15, 60)}
COMPANIES = ("Tech Gadgets Inc.", "Innovate Solutions Ltd.", "Future Tech LLC", "Gadget Gurus Co.")
SLOGANS = ("Innovating the Future", "Technology for Tomorrow", "Bringing Ideas to Life", "Innovation and Excellence")
RECEIPT_HEADER = "Date, Item, Amount"
_FOOTER = "Thank you for your purchase!\nVisit us at: www.tech-gadgets.com"
_FIRST_DAY = dt.date(2023, 1, 1)


def receipt_params(rng: np.random.Generator, transactions: int = 1) -> dict[str, Any]:
    """A receipt's company, slogan and ``transactions`` rows ``[date, item, "$price"]``: dates in 2023 before the
    device's date, prices uniform in the item's range."""
    days = (DEVICE_TIME.date() - _FIRST_DAY).days
    rows = []
    for _ in range(transactions):
        item = pick(rng, tuple(RECEIPT_ITEMS))
        low, high = RECEIPT_ITEMS[item]
        date = _FIRST_DAY + dt.timedelta(days=int(rng.integers(days)))
        rows.append([date.isoformat(), item, f"${rng.uniform(low, high):.2f}"])
    return {"company": pick(rng, COMPANIES), "slogan": pick(rng, SLOGANS), "transactions": rows}


def receipt_lines(receipt: dict[str, Any]) -> list[str]:
    """The receipt's CSV lines as AndroidWorld's transcription tasks expect them: the header, then one
    ``date, item, $price`` line per transaction."""
    return [RECEIPT_HEADER, *(", ".join(row) for row in receipt["transactions"])]


def receipt_image(receipt: dict[str, Any]) -> Image.Image:
    """The receipt drawn as ``create_receipt`` draws it: 500 px wide, company and slogan, the transactions, the
    footer at the bottom."""
    rows = receipt["transactions"]
    height = max(250, 50 * (len(rows) + 4)) * 2
    image = Image.new("L", (500, height), 255)
    _draw_text(image, (10, 100), f"{receipt['company']}\n{receipt['slogan']}", 20)
    for i, row in enumerate(rows):
        draw_line(image, (10, 170 + 30 * i), ", ".join(row), 16, 0)
    _draw_text(image, (10, height - 40), _FOOTER, 12)
    return image.convert("RGB")


@lru_cache(maxsize=32)
def _text_mask(text: str, font_size: int) -> tuple[Image.Image, tuple[int, int]]:
    """What ``ImageDraw.text`` inks for ``text`` (every line of it) drawn at (0, 0): its coverage mask and the mask's
    offset, kept (a receipt's company and slogan come from a few, its footer is always the same)."""
    face = font(font_size)
    left, top, right, bottom = ImageDraw.Draw(Image.new("L", (1, 1))).multiline_textbbox((0, 0), text, font=face)
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=face)
    return mask, (left, top)


def _draw_text(image: Image.Image, xy: tuple[int, int], text: str, font_size: int) -> None:
    """``ImageDraw.Draw(image).text(xy, text, fill=0, font=font(font_size))`` on a grey (``L``) picture, through
    ``_text_mask``: the same pixels (``text`` pastes its ink through the mask it renders, as this pastes through the
    kept one)."""
    mask, (left, top) = _text_mask(text, font_size)
    x, y = xy[0] + left, xy[1] + top
    image.paste(0, (x, y, x + mask.width, y + mask.height), mask)


def text_image(text: str, font_size: int = 24) -> Image.Image:
    """``_draw_text``: black text on white, one line per line of ``text`` (blank lines half a line high), 10 px
    margins."""
    lines = text.split("\n")
    boxes = [line_box(line, font_size) for line in lines]
    heights = [box[3] if line.strip() else font_size // 2 for line, box in zip(lines, boxes)]
    width = max((box[2] for box in boxes), default=0)
    image = Image.new("L", (width + 20, sum(heights) + 20), 255)
    y = 10
    for line, line_height in zip(lines, heights):
        if line.strip():
            draw_line(image, (10, y), line, font_size, 0)
        y += line_height
    return image.convert("RGB")


#: zlib's level for PNGs: the fastest. Pillow's default (6) makes a receipt's 500 x 900 picture 10 % smaller at about
#: twice the CPU (13 -> 8 ms); the pixels a decoder reads are the same at any level.
PNG_COMPRESS_LEVEL = 1


def encode(image: Image.Image, file_name: str) -> bytes:
    """The image as the bytes of the file ``file_name``: PNG (``PNG_COMPRESS_LEVEL``) or JPEG (Pillow's default
    quality), by its extension, as ``Image.save`` picks."""
    buffer = io.BytesIO()
    if file_name.lower().endswith(".png"):
        image.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    else:
        image.save(buffer, format="JPEG")
    return buffer.getvalue()
