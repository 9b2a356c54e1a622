"""AppAgent-style exploration on the simulated phone: the visit-count explorer documents real elements of real apps
(deterministically for a seed), docs files merge across runs, the LLM writer asks a chat server on loopback,
``android-gym explore`` and ``document`` run end to end, demonstrations (an oracle, a recorded run) document the
elements they act on, and the docs of the elements on screen reach the observation and the LLM agent's prompt."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest
from chat_server import ChatServer, Failure

import android_gym
from android_gym.actions import Action, ActionType
from android_gym.appdocs import DocStore, LLMWriter, element_key, explore
from android_gym.appdocs.demo import document_oracle, document_recording
from android_gym.appdocs.explorer import app_package, app_task
from android_gym.cli import main
from android_gym.errors import AppDocsError
from android_gym.llm import LLMAgent
from android_gym.llm.client import ChatClient
from android_gym.wrappers import AppDocs

EXPENSE = "com.arduia.expense"
MAIN = f"{EXPENSE}/{EXPENSE}.ui.MainActivity"


#: The explorer's seed: with seed 0, since lists that cannot scroll are no scroll candidates, its 40 steps no longer
#: reach the expense form's name field.
SEED = 6


@pytest.fixture(scope="module")
def expense_docs() -> tuple[DocStore, object]:
    return explore("expense", 40, seed=SEED)


def test_exploration_documents_real_elements_of_the_app(expense_docs):
    store, report = expense_docs
    assert report.package == EXPENSE and report.steps == 40
    assert report.elements == len(store) >= 8 and report.screens >= 5
    add = store.screens[MAIN][f"{EXPENSE}:id/fb_main_add"]
    assert add.docs["tap"].startswith('Tapping it opens the "Expense Entry" page')
    name = store.screens[MAIN][f"{EXPENSE}:id/edt_name"]
    assert "shows the keyboard" in name.docs["text"] and '"test"' in name.docs["text"]
    assert all(key.startswith(EXPENSE) or not key.startswith(("com.", "net.")) for key in store.screens[MAIN])


def test_exploration_is_deterministic_for_a_seed(expense_docs):
    again, report = explore("expense", 40, seed=SEED)
    assert again.to_json() == expense_docs[0].to_json()
    assert report == expense_docs[1]


def test_docs_files_merge_across_runs(expense_docs, tmp_path):
    store = expense_docs[0]
    path = store.save(tmp_path)
    assert path == tmp_path / f"{EXPENSE}.json"
    store.save(tmp_path)
    merged = DocStore.load(path)
    assert merged.to_json()["screens"].keys() == store.to_json()["screens"].keys() and len(merged) == len(store)
    doc = merged.screens[MAIN][f"{EXPENSE}:id/fb_main_add"]
    assert doc.seen["tap"] == 2 * store.screens[MAIN][f"{EXPENSE}:id/fb_main_add"].seen["tap"]
    (tmp_path / "bad.json").write_text('{"screens": {}}')
    with pytest.raises(AppDocsError, match="not an app docs file"):
        DocStore.load(tmp_path / "bad.json")
    with pytest.raises(AppDocsError, match="documents 'com.arduia.expense', not 'net.gsantner.markor'"):
        DocStore.load(path, "net.gsantner.markor")


def test_unknown_apps_are_refused_by_name():
    assert app_package("Pro Expense") == EXPENSE and app_package(EXPENSE) == EXPENSE
    with pytest.raises(AppDocsError, match="unknown app 'Snapchat'.*markor"):
        app_package("Snapchat")


def test_the_llm_writer_documents_with_the_models_words_and_falls_back_to_the_rules():
    replies = ["Documentation: Adds a new expense: opens the entry form.", Failure(400)]
    with ChatServer(replies + [Failure(400)] * 20) as server:
        writer = LLMWriter(ChatClient("test-model", base_url=server.base_url, api_key="k", max_retries=0))
        store, _ = explore("expense", 6, seed=0, writer=writer)
        prompt = server.requests[0]["messages"][1]["content"]
    docs = [doc.docs for docs in store.screens.values() for doc in docs.values()]
    assert {"tap": "Adds a new expense: opens the entry form."} in docs
    assert writer.failures == len(server.requests) - 1 >= 1
    assert any(text.startswith(("Tapping it", "Typing into it", "Scrolling it", "Long-pressing it"))
               for doc in docs for text in doc.values())
    assert "Screen before:" in prompt and "Screen after:" in prompt and "Changes found" in prompt


def test_cli_explore_writes_the_apps_docs(tmp_path, capsys):
    assert main(["explore", "markor", "--steps", "25", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "net.gsantner.markor: 25 steps" in out and "elements documented" in out
    value = json.loads((tmp_path / "net.gsantner.markor.json").read_text())
    assert value["package"] == "net.gsantner.markor" and value["screens"]
    assert main(["explore", "nosuchapp", "--out", str(tmp_path)]) == 2
    assert "unknown app 'nosuchapp'" in capsys.readouterr().err


def test_the_wrapper_adds_the_docs_of_the_elements_on_screen_only(expense_docs, tmp_path):
    store = expense_docs[0]
    env = AppDocs(gym.make(android_gym.env_id(app_task(EXPENSE)), pixels=False), store.save(tmp_path))
    try:
        observation, info = env.reset(seed=0)
        assert info["app_docs"] == {} and observation["app_docs"] == ""  # the launcher: nothing documented
        observation, *_, info = env.step(Action(ActionType.OPEN_APP, app_name="expense"))
    finally:
        env.close()
    elements = info["ui_elements"]
    documented = store.screens[MAIN]
    on_screen = {element.index for element in elements if element_key(element, elements) in documented}
    assert set(info["app_docs"]) == on_screen and len(on_screen) >= 2
    add = next(element for element in elements if element.resource_name.endswith("fb_main_add"))
    assert info["app_docs"][add.index] == documented[element_key(add, elements)].docs
    assert f"[{add.index}] tap: Tapping it opens the \"Expense Entry\" page" in observation["app_docs"]
    assert not any(element.resource_name.endswith("edt_name") for element in elements)  # documented, not shown
    assert "edt_name" not in observation["app_docs"]


def test_the_llm_agent_puts_the_docs_of_the_screen_in_its_prompt(expense_docs, make_env):
    store = expense_docs[0]
    with ChatServer(['Action: {"action_type": "open_app", "app_name": "expense"}', "Action: FINISH"]) as server:
        agent = LLMAgent(ChatClient("test-model", base_url=server.base_url, api_key="k"), docs=store)
        env = make_env(android_gym.env_id(app_task(EXPENSE)), pixels=False)
        observation, info = env.reset(seed=0)
        agent.reset(env)
        observation, *_, info = env.step(agent.act(observation, info))
        agent.act(observation, info)
        first, second = (request["messages"][1]["content"] for request in server.requests)
    add = next(element for element in info["ui_elements"] if element.resource_name.endswith("fb_main_add"))
    assert "Notes from an earlier exploration" not in first
    assert f'[{add.index}] tap: Tapping it opens the "Expense Entry" page' in second


def test_docs_from_an_oracle_demonstration_describe_the_oracles_elements(tmp_path, capsys):
    assert main(["run", "MarkorCreateNote", "--record", str(tmp_path / "rec")]) == 0
    episode = tmp_path / "rec" / "episode_000"
    steps = [json.loads(line) for line in (episode / "trajectory.jsonl").read_text().splitlines()]
    touched = {step["element"]["resource_id"] for step in steps if "element" in step}
    oracle = document_oracle("MarkorCreateNote", [0])["net.gsantner.markor"]
    assert document_recording(episode)["net.gsantner.markor"].to_json() == oracle.to_json()
    documented = {key.partition("#")[0] for docs in oracle.screens.values() for key in docs}
    assert documented == touched and len(documented) >= 4
    main_screen = oracle.screens["net.gsantner.markor/net.gsantner.markor.activity.MainActivity"]
    fab = main_screen["net.gsantner.markor:id/fab_add_new_item#Create a new file or folder"]
    assert fab.docs == {"tap": 'Tapping it opens a dialog; shows the keyboard; shows "Name", "Type", "Markdown", '
                               '"Template", "Empty file" and 5 more.'}
    assert "opens the DocumentActivity screen" in main_screen["android:id/button1"].docs["tap"]

    assert main(["document", str(tmp_path / "rec"), "--out", str(tmp_path / "docs")]) == 0
    assert f"docs: {tmp_path / 'docs' / 'net.gsantner.markor.json'} ({len(oracle)} elements" in capsys.readouterr().out
    lines = (episode / "trajectory.jsonl").read_text().replace('"class": "android.widget.ImageButton"',
                                                               '"class": "android.widget.Button"')
    (episode / "trajectory.jsonl").write_text(lines)
    with pytest.raises(AppDocsError, match="the replay shows another element at index"):
        document_recording(episode)
    assert main(["document", "NoSuchTask", "--out", str(tmp_path / "docs")]) == 2
    assert "no task named 'NoSuchTask'" in capsys.readouterr().err
