"""Gymnasium wrappers for android_gym environments.

For LLM agents: ``CompressUITree`` (UI text with stable IDs), ``SetOfMark`` (numbered screenshot),
``VisitCountHints`` (exploration hints), ``AppDocs`` (AppAgent's element documentation), ``ParseLLMActions``
(AndroidWorld JSON, AndroidArena and AppAgent action dialects). For RL: ``ElementActions`` (with an action mask),
``TouchGridActions``, ``PixelObservation``, ``ElementFeatureObservation``, ``make_rl_env`` stacking them,
``MultiTaskRLEnv`` (several tasks behind one view) and ``make_pixel_env`` (pixels and a touch grid, for CNN
policies). For both: ``ApplyConstraints`` (forbidden apps, pages, elements), ``RecordTrajectory`` and ``Distractors``
(notifications, the low-battery warning and permission prompts, seeded, at a rate).

Each is imported from its module when first used: importing one wrapper module imports only what it needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from android_gym.lazy_names import lazy_names

if TYPE_CHECKING:
    from android_gym.wrappers.app_docs import AppDocs
    from android_gym.wrappers.compression import CompressUITree, compress_ui
    from android_gym.wrappers.constraints import ApplyConstraints, ForbiddenApp, ForbiddenElement, ForbiddenPage
    from android_gym.wrappers.dialects import DIALECTS, AndroidArenaDialect, AndroidWorldJSON, AppAgentDialect
    from android_gym.wrappers.distractors import Distractors
    from android_gym.wrappers.exploration import VisitCountHints
    from android_gym.wrappers.llm_actions import ParseLLMActions
    from android_gym.wrappers.recording import RecordTrajectory
    from android_gym.wrappers.rl_actions import ElementActions, TouchGridActions
    from android_gym.wrappers.rl_env import make_rl_env
    from android_gym.wrappers.rl_multitask import MultiTaskRLEnv
    from android_gym.wrappers.rl_observations import ElementFeatureObservation, PixelObservation
    from android_gym.wrappers.rl_pixels import make_pixel_env
    from android_gym.wrappers.set_of_mark import SetOfMark

__all__ = ["AndroidArenaDialect", "AndroidWorldJSON", "AppAgentDialect", "AppDocs", "ApplyConstraints",
           "CompressUITree", "DIALECTS", "Distractors", "ElementActions", "ElementFeatureObservation", "ForbiddenApp",
           "ForbiddenElement", "ForbiddenPage", "MultiTaskRLEnv", "ParseLLMActions", "PixelObservation",
           "RecordTrajectory", "SetOfMark", "TouchGridActions", "VisitCountHints", "compress_ui", "make_pixel_env",
           "make_rl_env"]
__getattr__, __dir__ = lazy_names(__name__)
