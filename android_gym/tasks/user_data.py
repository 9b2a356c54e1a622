"""AndroidWorld's fake user data for file tasks (``task_evals/utils/user_data_generation.py`` and the note titles
of ``task_evals/single/markor.py``), and its file-name generators driven by a seeded ``numpy`` generator or its
draws made in blocks (``draws.exact_draws``: the same names, for a fraction of the cost).

The word lists are AndroidWorld's, kept as they are (``ADJECTIVES`` lists "fancy" twice, as there), so names are
drawn from the same distribution.
"""

from __future__ import annotations

import datetime as dt
import string
from collections.abc import Sequence

from android_gym.tasks.draws import Rng, integer_list

RANDOM_SENTENCES = (
    "Don't forget to water the plants while I'm away.",
    'Your dentist appointment is scheduled for 2 PM on Thursday.', "Lunch meeting with Sarah at 1 PM Cafe L'amour.",
    "The dog's vet appointment is next Monday at 11 AM.", "Parents' evening at school this Wednesday.",
    'Monthly budget meeting pushed to Friday.', 'Pick up groceries: Milk and Bread and Apples.',
    'Gym membership renewal due on the 20th.', 'The library book is due back on the 15th.',
    'Reminder to call Grandma for her birthday.', 'Weekend plans: Hiking trip to Blue Mountain.',
    "Book club meets next Tuesday to discuss '1984'.", 'Dry cleaning is ready for pick-up.',
    'Wedding anniversary on the 30th. Make reservations!', 'Yoga class every Tuesday and Thursday at 6 PM.',
    'Hello, World!', 'To be or not to be.', 'A quick brown fox.', 'Lorem Ipsum is simply dummy text.',
    'The night is dark and full of terrors.', 'May the Force be with you.', 'Elementary, my dear Watson.',
    "It's a bird, it's a plane.", 'Winter is coming.', 'The cake is a lie.', 'Inconceivable!',
    'A journey of a thousand miles begins with a single step.', 'I think, therefore I am.',
    'The early bird catches the worm.', 'Ignorance is bliss.', 'Actions speak louder than words.',
    'Beauty is in the eye of the beholder.', 'Better late than never.', 'Cleanliness is next to godliness.',
    "Don't cry over spilled milk.", 'The pen is mightier than the sword.', 'When in Rome, do as the Romans do.',
    'The squeaky wheel gets the grease.', 'Where there is smoke, there is fire.',
    "You can't make an omelette without breaking a few eggs.",
)

#: Markor's noise note titles (``markor._NOTE_TITLES``).
NOTE_TITLES = (
    'grocery_list_weekly.md', 'meeting_notes_project_team.md', 'personal_goals_2024.md', 'reading_list_2024.md',
    'research_paper_summary.md', 'summer_vacation_plans.md', 'budget_home_renovation.md',
    'april_workout_routine.md', 'birthday_gift_ideas_mom.md', 'recipe_homemade_pizza.md', 'weekend_todo_list.md',
    'insurance_plan_comparison.md', 'art_project_sketches.md', 'python_learning_goals.md',
    'trip_reflections_recent.md', 'startup_ideas_launch.md', 'client_meetings_schedule.md',
    'favorite_book_quotes.md', 'garden_layout_plan.md', 'upcoming_presentation_outline.md',
)

#: Folders of the emulator's storage and typical files in each (``EMULATOR_DIRECTORIES``).
EMULATOR_DIRECTORIES: dict[str, tuple[str, ...]] = {
    'Alarms': (
        'morning_alarm.mp3', 'wake_up.mp3', 'early_alarm.mp3', 'daily_reminder.mp3', 'weekend_alarm.mp3',
        'night_alarm.mp3', 'early_bird.mp3', 'fitness_reminder.mp3', 'meditation_time.mp3',
    ),
    'Audiobooks': (
        'sci_fi_book.mp3', 'history_lecture.mp3', 'novel_chapter.mp3', 'biography_audio.mp3', 'mystery_novel.mp3',
        'self_help_guide.mp3', 'adventure_story.mp3', 'language_lessons.mp3', 'childrens_fable.mp3',
    ),
    'DCIM': (
        'holiday_photos.jpg', 'birthday_party.jpg', 'wedding_event.jpg', 'nature_pics.jpg', 'road_trip.jpg',
        'graduation_ceremony.jpg', 'first_day_school.jpg', 'mountain_hike.jpg', 'winter_holiday.jpg',
    ),
    'Documents': (
        'resume.pdf', 'cover_letter.pdf', 'annual_report.pdf', 'meeting_notes.pdf', 'project_plan.pdf',
        'expense_report.pdf', 'invoice_details.pdf', 'client_brief.pdf', 'contract_agreement.pdf',
    ),
    'Download': (
        'setup_exe.exe', 'sample_pdf.pdf', 'test_download.zip', 'image_file.png', 'movie_trailer.mp4',
        'software_patch.exe', 'ebook_reader.apk', 'music_album.zip',
    ),
    'Movies': (
        'action_film.mp4', 'romantic_comedy.mp4', 'documentary.mp4', 'horror_movie.mp4', 'sci_fi_thriller.mp4',
        'animation_kids.mp4', 'drama_series.mp4', 'mystery_feature.mp4',
    ),
    'Music': (
        'rock_album.mp3', 'jazz_song.mp3', 'classical_music.mp3', 'pop_hit.mp3', 'electronic_dance.mp3',
        'folk_tunes.mp3', 'hip_hop_beats.mp3', 'opera_recordings.mp3',
    ),
    'Notifications': (
        'new_message.mp3', 'app_alert.mp3', 'system_notification.mp3', 'calendar_event.mp3', 'email_received.mp3',
        'weather_update.mp3', 'traffic_info.mp3', 'sports_score.mp3',
    ),
    'Pictures': (
        'selfie.jpg', 'sunset.jpg', 'beach_day.jpg', 'city_night.jpg', 'family_gathering.jpg', 'pets_playing.jpg',
        'garden_blooms.jpg', 'food_snapshot.jpg',
    ),
    'Podcasts': (
        'news_podcast.mp3', 'tech_talk.mp3', 'comedy_show.mp3', 'health_series.mp3', 'educational_content.mp3',
        'music_reviews.mp3', 'political_discussion.mp3', 'travel_tips.mp3',
    ),
    'Recordings': (
        'interview_recording.mp3', 'lecture_capture.mp3', 'memoir_audio.mp3', 'meeting_audio.mp3',
        'brainstorm_session.mp3', 'book_reading.mp3', 'therapy_session.mp3', 'personal_notes.mp3',
    ),
    'Ringtones': (
        'default_ringtone.mp3', 'custom_tone.mp3', 'vintage_bell.mp3', 'modern_beep.mp3', 'jazzy_ring.mp3',
        'funky_tune.mp3', 'classic_music.mp3', 'nature_sounds.mp3',
    ),
}

ADJECTIVES = (
    'quick', 'happy', 'silly', 'brave', 'kind', 'clever', 'gentle', 'proud', 'friendly', 'funny', 'curious',
    'smart', 'bold', 'calm', 'fierce', 'wise', 'strong', 'bright', 'eager', 'fancy', 'helpful', 'jolly', 'lively',
    'neat', 'polite', 'sharp', 'shy', 'super', 'tough', 'witty', 'active', 'alert', 'best', 'busy', 'cool', 'fair',
    'fancy', 'fine', 'glad', 'good', 'great', 'hot', 'nice', 'pretty', 'proud', 'ready', 'real', 'safe', 'sure',
    'warm',
)

NOUNS = (
    'apple', 'banana', 'cat', 'dog', 'elephant', 'fish', 'guitar', 'house', 'island', 'jacket', 'king', 'lion',
    'monkey', 'nest', 'ocean', 'penguin', 'queen', 'rabbit', 'snake', 'tree', 'umbrella', 'violin', 'watch',
    'xylophone', 'yacht', 'zebra', 'ant', 'bear', 'cow', 'deer', 'eagle', 'frog', 'goat', 'horse', 'igloo', 'jelly',
    'koala', 'lamp', 'mouse', 'nurse', 'owl', 'pig', 'quilt', 'rose', 'sun', 'tiger', 'unicorn', 'vase', 'wolf',
    'fox', 'zebra',
)


#: ``user_data_generation.COMMON_GIVEN_NAMES``.
COMMON_GIVEN_NAMES = (
    "Abdullah", "Adam", "Ahmed", "Alejandro", "Ali", "Alice", "Amelia", "Amina", "Amir", "Ana", "Anna", "Aria",
    "Arthur", "Ava", "Camila", "Carlos", "Charlie", "Charlotte", "Daniel", "David", "Elias", "Ella", "Ema", "Emil",
    "Emilia", "Emily", "Emma", "Eva", "Fatima", "Freya", "Gabriel", "George", "Grace", "Hana", "Hannah", "Henry",
    "Hugo", "Ian", "Ibrahim", "Isabella", "Isla", "Ivan", "Jack", "James", "Jose", "Juan", "Laura", "Leo", "Leon",
    "Leonardo", "Liam", "Lily", "Lina", "Louis", "Luca", "Lucas", "Luis", "Luka", "Maria", "Mariam", "Mark",
    "Martin", "Martina", "Maryam", "Mateo", "Matteo", "Maya", "Mia", "Miguel", "Mila", "Mohammad", "Muhammad",
    "Nikola", "Noa", "Noah", "Nora", "Oliver", "Olivia", "Omar", "Oscar", "Petar", "Samuel", "Santiago", "Sara",
    "Sarah", "Sofia", "Sofija", "Sophia", "Sophie", "Theo", "Theodore", "Thiago", "Thomas", "Valentina",
    "Victoria", "William", "Willow",
)

_NAME_CHARS = string.ascii_letters + string.digits
_MODIFICATIONS = ("backup", "copy", "final", "edited")
_FIRST_DATE, _LAST_DATE = dt.date(2023, 1, 1), dt.date(2023, 10, 14)


def pick(rng: Rng, options: Sequence[str]) -> str:
    """One of ``options``, uniformly (``random.choice``)."""
    return options[int(rng.integers(len(options)))]


def random_string(rng: Rng, length: int) -> str:
    """``generate_random_string``: ASCII letters and digits."""
    return "".join([_NAME_CHARS[i] for i in integer_list(rng, len(_NAME_CHARS), length)])


def random_sentence(rng: Rng) -> str:
    """One of AndroidWorld's ``RANDOM_SENTENCES``."""
    return pick(rng, RANDOM_SENTENCES)


def modified_file_name(rng: Rng, base_name: str) -> str:
    """``generate_modified_file_name``: a date (2023_01_01 … 2023_10_14), a random 4-character string or one of
    backup/copy/final/edited joined to the name before its extension, as a prefix or a suffix."""
    stem, dot, extension = base_name.rpartition(".") if "." in base_name.lstrip(".") else (base_name, "", "")
    kind = int(rng.integers(3))
    if kind == 0:
        days = int(rng.integers((_LAST_DATE - _FIRST_DATE).days + 1))
        modification = (_FIRST_DATE + dt.timedelta(days=days)).strftime("%Y_%m_%d")
    elif kind == 1:
        modification = random_string(rng, 4)
    else:
        modification = pick(rng, _MODIFICATIONS)
    name = f"{modification}_{stem}" if rng.integers(2) else f"{stem}_{modification}"
    return f"{name}{dot}{extension}"


def random_file_name(rng: Rng) -> str:
    """``generate_random_file_name``: a modified ``<adjective>_<noun>`` (no extension)."""
    return modified_file_name(rng, f"{pick(rng, ADJECTIVES)}_{pick(rng, NOUNS)}")


def noise_file_names(rng: Rng, base_name: str, variants: Sequence[str], n: int = 20,
                     exclude: Sequence[str] = ()) -> list[str]:
    """``generate_noise_files``' names: 1 to ``n`` distinct names, each a modified variant (85 %) or a modified
    ``base_name``, given a variant's extension when it has none; never one of ``exclude`` (the task's own files,
    which AndroidWorld could overwrite by chance)."""
    wanted = int(rng.integers(1, n + 1))
    names: list[str] = []
    while len(names) < wanted:
        name = modified_file_name(rng, pick(rng, variants) if rng.random() <= 0.85 else base_name)
        if "." not in name:
            name += "." + pick(rng, variants).rpartition(".")[2]
        if name not in names and name not in exclude:
            names.append(name)
    return names
