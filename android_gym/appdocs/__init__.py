"""AppAgent's exploration and documentation: explore an app (``explore``) or watch a demonstration
(``android_gym.appdocs.demo``), write what each element does (``DocStore``, one JSON file per app), and give the
documents of the elements on screen to an agent (``android_gym.wrappers.AppDocs``, ``make_agent(docs=...)``)."""

from android_gym.appdocs.changes import LLMWriter, RuleWriter, Snapshot
from android_gym.appdocs.explorer import ExploreReport, VisitCountExplorer, app_package, explore
from android_gym.appdocs.store import DocStore, element_key, load_docs

__all__ = ["DocStore", "ExploreReport", "LLMWriter", "RuleWriter", "Snapshot", "VisitCountExplorer",
           "app_package", "element_key", "explore", "load_docs"]
