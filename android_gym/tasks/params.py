"""Seeded parameter generators: every draw comes from the ``np.random.Generator`` passed in."""

from __future__ import annotations

import numpy as np

FIRST_NAMES = ("Alice", "Bob", "Carmen", "Dmitri", "Emma", "Farid", "Grace", "Hiroshi", "Ines", "Jamal", "Keiko",
               "Liam", "Maya", "Noah", "Olga", "Pedro", "Quinn", "Rosa", "Samir", "Tara", "Uma", "Victor",
               "Wen", "Yusuf", "Zoe")
LAST_NAMES = ("Anderson", "Brown", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Hughes", "Ito", "Jensen",
              "Kowalski", "Lopez", "Martin", "Nguyen", "Okafor", "Patel", "Rossi", "Schmidt", "Tanaka", "Walker")
MESSAGES = (
    "Are we still on for lunch tomorrow?",
    "Running ten minutes late, sorry!",
    "Can you pick up milk on the way home?",
    "Happy birthday! Hope you have a great day.",
    "The meeting moved to 3pm in room B.",
    "Don't forget to water the plants.",
    "I left the keys under the mat.",
    "Call me when you land.",
    "Thanks for dinner last night, it was lovely.",
    "Beware of the dog when you come over.",
    "The package arrived this morning.",
    "Let's watch the game at my place on Sunday.",
    "Your table is booked for 7:30 tonight.",
    "Please send me the slides before noon.",
    "Good luck on your exam today!",
    "The train is delayed, I will take the bus.",
    "Remember to bring your passport.",
    "Can we move our call to Friday?",
    "I found your umbrella in my car.",
    "See you at the gym at 6.",
)


def phone_number(rng: np.random.Generator) -> str:
    """A North American number in E.164 form (+1 NXX NXX XXXX), never a 555-01xx fiction number clash."""
    area = int(rng.integers(201, 990))
    exchange = int(rng.integers(201, 990))
    line = int(rng.integers(0, 10_000))
    return f"+1{area}{exchange}{line:04d}"


def person_name(rng: np.random.Generator) -> str:
    """``"First Last"``."""
    return f"{FIRST_NAMES[rng.integers(len(FIRST_NAMES))]} {LAST_NAMES[rng.integers(len(LAST_NAMES))]}"


def message(rng: np.random.Generator, exclude: tuple[str, ...] = ()) -> str:
    """A short text message, different from those in ``exclude``."""
    choices = [text for text in MESSAGES if text not in exclude]
    return choices[int(rng.integers(len(choices)))]
