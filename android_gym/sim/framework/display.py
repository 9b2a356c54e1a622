"""The display's size and density, and their overrides (``wm size WxH``, ``wm density D``).

Views are laid out in design pixels: pixels of a 420 dpi screen (the Pixel 6's), so a design pixel is 160/420 dp.
A screen of density ``D`` draws them ``D / 420`` times as large and is ``width * 420 / D`` design pixels wide: a
720x1280 phone at 320 dpi is 945 design px (360 dp) wide, the 1600x2560 tablet at 320 dpi 2100 (800 dp).

Without a density override the screen keeps the density it was built with: ``420 * width / 1080`` for a screen
``width`` px wide, so every physical screen is the Pixel 6's 411 dp (1080 design px) wide and a small one
(``sim:270x600``) draws natively at a quarter of the size.

An override behaves as WindowManagerService's: a size equal to the physical one, or a density equal to the
physical one, clears it; other sizes are bounded to 200 px .. twice the physical size per side
(``DisplayContent.setForcedSize``), densities below 72 are refused (``WindowManagerShellCommand``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

DESIGN_WIDTH = 1080  # the physical screen's width in design pixels
DESIGN_DENSITY = 420  # dpi of a design pixel: the Pixel 6 image's ro.sf.lcd_density
MIN_FORCED_SIZE = 200  # DisplayContent.setForcedSize: the smallest side an override may have
MAX_FORCED_SCALE = 2  # ... and the largest, times the physical side
MIN_DENSITY = 72  # WindowManagerShellCommand.runDisplayDensity: "Error: density must be >= 72"
DESIGN_DP = DESIGN_DENSITY / 160  # design pixels per dp (DisplayMetrics.density at 420 dpi: 2.625)



def dp(value: float) -> int:
    """``value`` dp (or sp at font scale 1) in design pixels, rounded."""
    return round(value * DESIGN_DP)


@dataclass(frozen=True)
class Display:
    """A display: its physical size (px) and the overrides of its size and density (``None``: none)."""

    physical_width: int
    physical_height: int
    forced_size: tuple[int, int] | None = None
    forced_density: int | None = None

    @property
    def physical_density(self) -> int:
        """``ro.sf.lcd_density``: 420 dpi at 1080 px wide, in proportion at other widths (270 px: 105 dpi), rounded
        half up to a whole dpi as densities are given."""
        return math.floor(DESIGN_DENSITY * self.physical_width / DESIGN_WIDTH + 0.5)

    @property
    def size(self) -> tuple[int, int]:
        """The size apps and input see: the override, else the physical size."""
        return self.forced_size or (self.physical_width, self.physical_height)

    @property
    def density(self) -> int:
        """The density apps see (``DisplayMetrics.densityDpi``): the override, else the physical density."""
        return self.forced_density or self.physical_density

    @property
    def scale(self) -> float:
        """Screen pixels per design pixel (``density / 420``; exactly ``width / 1080`` at the physical density)."""
        if self.forced_density is None:
            return self.physical_width / DESIGN_WIDTH
        return self.forced_density / DESIGN_DENSITY

    @property
    def design_size(self) -> tuple[int, int]:
        """The screen in design pixels, rounded so that the drawn design area covers every screen pixel."""
        return _design_length(self.size[0], self.scale), _design_length(self.size[1], self.scale)

    def with_size(self, width: int, height: int) -> Display:
        """This display with ``wm size WIDTHxHEIGHT`` applied (bounded as Android bounds it)."""
        if (width, height) == (self.physical_width, self.physical_height):
            return Display(self.physical_width, self.physical_height, None, self.forced_density)
        forced = (min(max(width, MIN_FORCED_SIZE), self.physical_width * MAX_FORCED_SCALE),
                  min(max(height, MIN_FORCED_SIZE), self.physical_height * MAX_FORCED_SCALE))
        return Display(self.physical_width, self.physical_height, forced, self.forced_density)

    def with_density(self, density: int | None) -> Display:
        """This display with ``wm density DENSITY`` (``None``: ``wm density reset``) applied."""
        forced = None if density == self.physical_density else density
        return Display(self.physical_width, self.physical_height, self.forced_size, forced)

    def without_size(self) -> Display:
        """This display after ``wm size reset``."""
        return Display(self.physical_width, self.physical_height, None, self.forced_density)


def _design_length(pixels: int, scale: float) -> int:
    """The whole number of design pixels nearest ``pixels / scale`` whose scaled length is at least ``pixels``."""
    length = round(pixels / scale)
    return length + 1 if round(length * scale) < pixels else length
