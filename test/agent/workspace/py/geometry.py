"""Shapes and their areas."""
import math


class Circle:
    """A circle by its radius."""

    def __init__(self, radius):
        self.radius = radius

    def area(self):
        # pi r squared
        return math.pi * self.radius ** 2


def describe(shape):
    return f"{type(shape).__name__} of area {shape.area():.2f}"
