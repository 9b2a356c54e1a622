"""UI text compression: what it keeps, merges and drops, stable IDs, and the wrapper."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

from android_gym.actions import Action, ActionType
from android_gym.agents import OracleAgent
from android_gym.testing import run_episode
from android_gym.ui import parse_ui_dump
from android_gym.wrappers.compression import CompressUITree, CompressUITreeError, compress_ui, readable


def _actionable_indices(xml: str) -> set[int]:
    return {element.index for element in parse_ui_dump(xml)
            if element.is_actionable and element.bbox_pixels.area > 0
            and element.package_name != "com.android.systemui"}


def _node(compressed, text):
    found = [node for _, node in compressed.walk() if node.text == text]
    assert len(found) == 1, f"{len(found)} nodes say {text!r}"
    return found[0]


def _open_internet_page(env):
    """Settings → Network & internet → Internet, by the compressed rows' element indices."""
    observation, info = env.reset(seed=0)
    observation, *_, info = env.step(Action(ActionType.OPEN_APP, app_name="Settings"))
    for row in ("Network & internet", "Internet"):
        node = next(node for node in compress_ui(observation["a11y_tree"]).nodes.values()
                    if node.text.startswith(row) and "click" in node.actions)
        observation, *_, info = env.step(Action(ActionType.CLICK, index=node.index))
    return observation, info


def test_the_real_launcher_dump_keeps_every_actionable_element_in_a_twentieth_of_the_characters(launcher_dump):
    compressed = compress_ui(launcher_dump)
    assert {node.index for node in compressed.nodes.values()} >= _actionable_indices(launcher_dump)
    text = compressed.to_text()
    assert len(text) < len(launcher_dump) / 20
    assert text.splitlines()[0] == "App: com.google.android.apps.nexuslauncher"
    assert '[' in text and '"Chrome" <click,long-click>' in text
    elements = parse_ui_dump(launcher_dump)
    for node in compressed.nodes.values():  # the text an agent reads is the element's own
        assert elements[node.index].label in node.text


def test_the_compressed_form_is_deterministic_and_its_ids_are_unique(launcher_dump):
    first, second = compress_ui(launcher_dump), compress_ui(launcher_dump.encode())
    assert first.to_text() == second.to_text()
    ids = [node.id for _, node in first.walk()]
    assert len(ids) == len(set(ids)) == len(first.nodes)


def test_layout_only_nodes_go_and_their_children_move_up(launcher_dump):
    compressed = compress_ui(launcher_dump)
    elements = parse_ui_dump(launcher_dump)
    kept = {node.index for node in compressed.nodes.values()}
    dropped_layouts = [e for e in elements if not (e.label or e.is_actionable or e.is_checked or e.is_selected)]
    assert dropped_layouts and not kept & {e.index for e in dropped_layouts}
    depths = {node.index: depth for depth, node in compressed.walk()}
    assert all(depths[node.index] <= elements[node.index].depth for node in compressed.nodes.values())


def test_passive_text_merges_into_its_actionable_row_but_not_into_a_list(make_env):
    env = CompressUITree(make_env("AndroidWorld/SystemWifiTurnOff-v0", pixels=False))
    observation, info = env.reset(seed=0)
    observation, *_, info = env.step(Action(ActionType.OPEN_APP, app_name="Settings"))
    compressed = compress_ui(observation["a11y_tree"])
    row = _node(compressed, "Network & internet Mobile, Wi\u2011Fi, hotspot")
    assert row.actions == ("click",) and not row.children
    scroller = next(node for node in compressed.nodes.values() if "scroll" in node.actions)
    assert scroller.text == "" and len(scroller.children) > 5
    assert f'[{row.id}] "Network & internet Mobile, Wi\u2011Fi, hotspot" <click>' in compressed.to_text()
    assert f'[{row.id}] "Network & internet Mobile, Wi&#8209;Fi, hotspot" <click>' in observation["ui_text"]


def test_ids_stay_while_a_switch_flips_and_state_words_follow_it(make_env):
    env = CompressUITree(make_env("AndroidWorld/SystemWifiTurnOff-v0", pixels=False))
    observation, info = _open_internet_page(env)
    before = compress_ui(observation["a11y_tree"])
    switch = next(node for node in before.nodes.values() if node.class_name == "Switch")
    assert switch.states == ("checked",)
    observation, *_, info = env.step(Action(ActionType.CLICK, index=switch.index))
    after = compress_ui(observation["a11y_tree"])
    assert after.nodes[switch.id].states == ("unchecked",)
    assert info["ui_nodes"][switch.id].is_checked is False
    kept_rows = {node.id for node in before.nodes.values()} & {node.id for node in after.nodes.values()}
    assert {switch.id, _node(before, "Wi-Fi").id, _node(before, "Saved networks").id} <= kept_rows


def test_a_field_keeps_its_id_while_the_agent_types(make_env):
    env = CompressUITree(make_env("AndroidWorld/SendSms-v0", pixels=False))
    env.reset(seed=0)
    observation, *_, info = env.step(Action(ActionType.OPEN_APP, app_name="Simple SMS Messenger"))
    fab = next(node for node in compress_ui(observation["a11y_tree"]).nodes.values()
               if node.resource_id == "conversations_fab")
    observation, *_, info = env.step(Action(ActionType.CLICK, index=fab.index))
    field_before = next(node for node in compress_ui(observation["a11y_tree"]).nodes.values()
                        if "edit" in node.actions)
    observation, *_, info = env.step(Action(ActionType.INPUT_TEXT, index=field_before.index, text="+15551234"))
    field_after = compress_ui(observation["a11y_tree"]).nodes[field_before.id]
    assert "+15551234" in field_after.text and "edit" in field_after.actions


def test_identical_rows_get_distinct_ids_numbered_in_document_order():
    row = ('<node class="android.widget.LinearLayout" package="p" text="" content-desc="" clickable="true" '
           'bounds="[0,{y}][100,{z}]"><node class="android.widget.TextView" package="p" text="Pasta" '
           'content-desc="" bounds="[0,{y}][100,{z}]"/></node>')
    rows = "".join(row.format(y=10 * i, z=10 * i + 10) for i in range(3))
    xml = (f'<hierarchy><node class="androidx.recyclerview.widget.RecyclerView" package="p" text="" '
           f'content-desc="" scrollable="true" bounds="[0,0][100,30]">{rows}</node></hierarchy>')
    compressed = compress_ui(xml)
    pastas = [node for _, node in compressed.walk() if node.text == "Pasta"]
    assert len(pastas) == 3 and len({node.id for node in pastas}) == 3
    assert [node.index for node in pastas] == [1, 3, 5]
    assert compress_ui(xml).to_text() == compressed.to_text()


def _window(package: str, text: str, clickable: bool = True) -> str:
    return (f'<node class="android.widget.FrameLayout" package="{package}" text="" content-desc="" '
            f'bounds="[0,0][100,100]"><node class="android.widget.Button" package="{package}" text="{text}" '
            f'content-desc="" clickable="{str(clickable).lower()}" bounds="[0,0][50,50]"/></node>')


def test_system_ui_framing_an_app_is_dropped_but_the_shade_in_front_is_kept():
    framed = compress_ui(f"<hierarchy>{_window('com.android.systemui', '12:30')}"
                         f"{_window('com.example', 'Go')}</hierarchy>")
    assert [node.text for node in framed.nodes.values()] == ["Go"] and framed.package == "com.example"
    shade = compress_ui(f"<hierarchy>{_window('com.android.systemui', 'Internet')}</hierarchy>")
    assert [node.text for node in shade.nodes.values()] == ["Internet"]


def test_empty_bounds_and_bad_input():
    hidden = compress_ui('<hierarchy><node class="android.widget.Button" package="p" text="Hidden" '
                         'clickable="true" bounds="[5,5][5,9]"/></hierarchy>')
    assert hidden.nodes == {}
    for bad in ("", "<html/>", "<hierarchy><node>"):
        with pytest.raises(ValueError, match="not a uiautomator dump"):
            compress_ui(bad)


def test_json_form_nests_the_same_nodes(launcher_dump):
    compressed = compress_ui(launcher_dump)
    data = json.loads(compressed.to_json())
    assert data["app"] == compressed.package

    def walk(nodes):
        for node in nodes:
            yield node
            yield from walk(node.get("children", []))

    assert [(n["id"], n["index"]) for n in walk(data["nodes"])] == [(n.id, n.index) for _, n in compressed.walk()]


@pytest.mark.parametrize(("dump", "texts", "escaped"), [
    ("systemui_lockscreen_weather_960x2142", ['"13°C Cloudy 13°C" <click>', '"Fri 20 Mar"'], "13\\u00b0C"),
    ("futu_trader_rebalance_history_1080x1920",
     ['"调仓历史" <click>', '"CoreWeave 18.09%->0.00% CRWV 参考成交价 133.785" <click>'], "\\u8c03\\u4ed3"),
])
def test_real_dumps_with_non_ascii_text_read_as_their_characters(real_dump, dump, texts, escaped):
    compressed = compress_ui(real_dump(dump))
    text = compressed.to_text()
    assert all(each in text for each in texts), text
    assert "\\u" not in text and "&#" not in text
    as_json = compressed.to_json()  # the JSON form stays ASCII, with JSON's escapes

    def walk(nodes):
        for node in nodes:
            yield node
            yield from walk(node.get("children", []))

    assert as_json.isascii() and escaped in as_json
    assert [n.get("text", "") for n in walk(json.loads(as_json)["nodes"])] == [n.text for _, n in compressed.walk()]


def test_the_text_form_escapes_only_what_would_break_a_line():
    xml = ('<hierarchy><node class="android.widget.TextView" package="p" text="C:\\temp &quot;a&quot;&#10;b&#9;c" '
           'clickable="true" bounds="[0,0][100,100]"/></hierarchy>')
    line = compress_ui(xml).to_text().splitlines()[1]
    assert line.endswith('TextView "C:\\temp "a"\\nb\\tc" <click>'), line


def test_index_ids_are_the_element_indices_set_of_mark_draws(launcher_dump):
    compressed = compress_ui(launcher_dump)
    by_index = compressed.to_text(ids="index").splitlines()[1:]
    by_hash = compressed.to_text().splitlines()[1:]
    for (_, node), indexed, hashed in zip(compressed.walk(), by_index, by_hash, strict=True):
        assert indexed == hashed.replace(f"[{node.id}]", f"[{node.index}]")
    with pytest.raises(CompressUITreeError, match="unknown ids 'uuid'"):
        compressed.to_text(ids="uuid")


def test_the_wrapper_adds_ascii_text_and_an_id_map_that_actions_can_use(make_env):
    env = CompressUITree(make_env("AndroidWorld/SendSms-v0", pixels=False))
    observation, info = env.reset(seed=0)
    assert env.observation_space.contains(observation)
    assert observation["ui_text"].isascii() and observation["ui_text"].startswith("App: ")
    assert readable(observation["ui_text"]) == info["ui_compressed"].to_text()
    sms = next(node_id for node_id, element in info["ui_nodes"].items() if element.text == "SMS Messenger")
    assert f"[{sms}]" in observation["ui_text"]
    observation, *_, info = env.step(Action(ActionType.CLICK, index=info["ui_nodes"][sms].index))
    assert observation["ui_text"].startswith("App: com.simplemobiletools.smsmessenger")
    assert env.observation_space.contains(observation)


def test_json_form_and_a_custom_key(make_env):
    env = CompressUITree(make_env("AndroidWorld/SendSms-v0", pixels=False), form="json", key="ui_json")
    observation, info = env.reset(seed=0)
    assert json.loads(observation["ui_json"])["app"] == "com.google.android.apps.nexuslauncher"


def test_an_oracle_solves_its_task_through_the_wrapper(make_env):
    env = CompressUITree(make_env("AndroidWorld/ContactsAddContact-v0", pixels=False))
    assert run_episode(env, OracleAgent(), seed=1).score == 1.0


def test_bad_configuration_is_explained(make_env):
    env = make_env("AndroidWorld/SendSms-v0", pixels=False)
    with pytest.raises(CompressUITreeError, match="unknown form 'yaml'"):
        CompressUITree(env, form="yaml")
    with pytest.raises(CompressUITreeError, match="already has 'goal'"):
        CompressUITree(env, key="goal")
    with pytest.raises(CompressUITreeError, match="a11y_tree"):
        CompressUITree(gym.make("CartPole-v1"))


def test_a_device_failure_gives_an_empty_compression_and_no_crash(make_env):
    env = CompressUITree(make_env("AndroidWorld/SendSms-v0", pixels=False))
    env.reset(seed=0)
    env.unwrapped.device.close()  # the phone goes away mid-episode
    observation, reward, terminated, truncated, info = env.step(Action(ActionType.NAVIGATE_HOME))
    assert truncated and info["backend_error"] and info["ui_nodes"] == {}
    assert observation["ui_text"] == "App: " and env.observation_space.contains(observation)
