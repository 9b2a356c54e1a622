"""AppAgent's grid mode: a numbered grid over the screenshot, for screens whose elements are not labelled.

As AppAgent draws it: the cell side is the smallest divisor of the screen's side between 120 and 180 px (else
120 px); cells are numbered from 1, row by row from the top left; each cell has 9 sub-areas (``SUBAREAS``) whose
points lie at a quarter, a half and three quarters of the cell's width and height. ``Grid.point(area, subarea)``
is where ``tap(area, subarea)`` touches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from android_gym.errors import InvalidActionError

#: The cell side's range in pixels (AppAgent's).
MIN_CELL, MAX_CELL = 120, 180
#: Sub-area → (column, row) in quarters of the cell.
SUBAREAS = {"top-left": (1, 1), "top": (2, 1), "top-right": (3, 1), "left": (1, 2), "center": (2, 2),
            "right": (3, 2), "bottom-left": (1, 3), "bottom": (2, 3), "bottom-right": (3, 3)}
_LINE = (255, 116, 113)
_SHADOW = (0, 0, 0)


def cell_side(length: int) -> int:
    """The smallest divisor of ``length`` in [120, 180], else 120."""
    return next((side for side in range(MIN_CELL, MAX_CELL + 1) if length % side == 0), MIN_CELL)


@dataclass(frozen=True)
class Grid:
    """The grid of a ``width`` × ``height`` screen: ``rows`` × ``cols`` cells of ``cell_width`` × ``cell_height``."""

    width: int
    height: int

    @property
    def rows(self) -> int:
        """Rows of cells."""
        return max(1, self.height // cell_side(self.height))

    @property
    def cols(self) -> int:
        """Columns of cells."""
        return max(1, self.width // cell_side(self.width))

    @property
    def cell_width(self) -> int:
        """A cell's width in pixels (the screen's width shared by the columns)."""
        return self.width // self.cols

    @property
    def cell_height(self) -> int:
        """A cell's height in pixels."""
        return self.height // self.rows

    @property
    def areas(self) -> int:
        """How many cells there are (numbered 1 … ``areas``)."""
        return self.rows * self.cols

    def point(self, area: int, subarea: str = "center") -> tuple[int, int]:
        """The screen point of ``subarea`` of cell ``area``; ``InvalidActionError`` for a cell or sub-area that does
        not exist."""
        if isinstance(area, bool) or not isinstance(area, int) or not 1 <= area <= self.areas:
            raise InvalidActionError(f"area {area!r} is not on the grid: areas are numbered 1 to {self.areas}")
        if subarea not in SUBAREAS:
            raise InvalidActionError(f"subarea {subarea!r} is not one of {', '.join(SUBAREAS)}")
        row, col = divmod(area - 1, self.cols)
        quarter_x, quarter_y = SUBAREAS[subarea]
        return (col * self.cell_width + self.cell_width * quarter_x // 4,
                row * self.cell_height + self.cell_height * quarter_y // 4)

    def describe(self) -> str:
        """The grid in words, for a prompt."""
        return (f"The screenshot is divided into a grid of {self.rows} rows and {self.cols} columns of "
                f"{self.cell_width}x{self.cell_height} px cells, numbered 1 to {self.areas} row by row from the top "
                "left; each number is written in its cell's top-left corner.")


def draw_grid(pixels: np.ndarray) -> np.ndarray:
    """A copy of the ``(H, W, 3)`` screenshot with the grid's cell borders and numbers drawn on it."""
    height, width = pixels.shape[:2]
    grid = Grid(width, height)
    image = Image.fromarray(pixels)
    draw = ImageDraw.Draw(image)
    thickness = max(1, grid.cell_width // 100)
    font = ImageFont.load_default(size=max(12, grid.cell_width // 4))
    for area in range(1, grid.areas + 1):
        row, col = divmod(area - 1, grid.cols)
        left, top = col * grid.cell_width, row * grid.cell_height
        draw.rectangle((left, top, left + grid.cell_width - 1, top + grid.cell_height - 1), outline=_LINE,
                       width=thickness)
        at = (left + grid.cell_width // 20 + thickness, top + grid.cell_height // 20 + thickness)
        draw.text((at[0] + thickness, at[1] + thickness), str(area), font=font, fill=_SHADOW)
        draw.text(at, str(area), font=font, fill=_LINE)
    return np.asarray(image)
