"""An LLM agent for android_gym envs over any OpenAI-compatible chat API (``pip install -e ".[llm]"``).

``make_agent(model=..., base_url=...)`` (or ``--agent android_gym.llm:make_agent`` with ``ANDROID_GYM_LLM_*``
environment variables) gives an ``LLMAgent``: AndroidWorld's M3A/T3A prompting in text or multimodal mode, in one
of the three action dialects, with retries, timeouts and token and cost accounting. Importing this package does
not need ``openai``; making a client does.
"""

from android_gym.llm.agent import ENV_VARS, MODES, LLMAgent, Step, make_agent
from android_gym.llm.client import ChatClient, ChatReply, Usage

__all__ = ["ENV_VARS", "MODES", "ChatClient", "ChatReply", "LLMAgent", "Step", "Usage", "make_agent"]
