"""The ``android-gym`` command: list tasks, run an agent on a task (optionally recording every episode), record
oracle demonstrations as a Minari dataset, explore an app or watch demonstrations to document its elements, list
devices, and serve a simulated phone over adb."""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path

import gymnasium as gym
from tqdm import tqdm

import android_gym
from android_gym import evaluation
from android_gym.agents import BUILTIN_AGENTS, load_agent
from android_gym.errors import AdbServerError, AndroidGymError, RunDirError, ServerError
from android_gym.testing import run_episode


def _env_id(task: str) -> str:
    """Accept ``AndroidWorld/SendSms-v0``, ``SendSms-v0`` or ``SendSms``."""
    if "/" in task:
        return task
    return android_gym.env_id(task.removesuffix("-v0"))


AGENT_HELP = (f"{', '.join(BUILTIN_AGENTS)} (seeded with --seed), or module:callable, a callable of an importable "
              "module that takes no argument and returns an agent (android_gym.agents.Agent); default oracle")


def cmd_list(args: argparse.Namespace) -> int:
    """Print every registered env id with its step budget and goal template (constrained variants last)."""
    from android_gym.envs.constrained import CONSTRAINED_VARIANTS

    for name in android_gym.task_names():
        task = android_gym.get_task(name)
        print(f"{android_gym.env_id(name):50s} steps={task.max_steps():3d}  {task.template}")
    for name, (base, constraints) in CONSTRAINED_VARIANTS.items():
        rules = " ".join(constraint.describe() for constraint in constraints)
        print(f"{android_gym.env_id(name):50s} steps={android_gym.get_task(base).max_steps():3d}  {base} + {rules}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """Run ``--episodes`` episodes of an agent and print per-episode results and the success rate."""
    from android_gym.wrappers.recording import RecordTrajectory

    env_id = _env_id(args.task)
    if env_id not in gym.registry:
        android_gym.get_task(env_id.split("/")[-1].removesuffix("-v0"))  # raises with suggestions
    agent = load_agent(args.agent, args.seed)
    env = gym.make(env_id, device=args.device, pixels=args.record is not None)
    if args.record:
        env = RecordTrajectory(env, args.record, frames=args.record_frames)
    successes = 0
    try:
        with tqdm(range(args.episodes), desc=env_id, unit="episode", disable=args.episodes < 2) as bar:
            for episode in bar:
                result = run_episode(env, agent, seed=args.seed if episode == 0 else None)
                successes += result.score >= 1.0
                tqdm.write(f"episode {episode}: score={result.score:.2f} steps={result.steps} "
                           f"goal={env.unwrapped.task.goal!r}")
                bar.set_postfix(success_rate=f"{successes / (episode + 1):.2f}")
    finally:
        env.close()
    print(f"success rate: {successes}/{args.episodes} = {successes / args.episodes:.2f}")
    if args.record:
        print(f"recorded episodes in {args.record}/")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    """Play an agent over a suite × seeds (resuming a run folder), then print and write the summary and report."""
    tasks = evaluation.resolve_suite(args.suite)
    devices = evaluation.worker_devices(args.device, args.workers, args.devices)
    try:
        records = evaluation.evaluate(
            tasks, range(args.seed, args.seed + args.seeds), args.agent, args.out, devices, agent_seed=args.seed,
            frames=args.record_frames, oracle_metrics=not args.no_oracle_metrics, limit=args.limit,
            retry_errors=args.retry_errors, ray_address=args.ray_address)
    except KeyboardInterrupt:
        print(f"\ninterrupted: the finished episodes are in {args.out}/results.jsonl; run the same command again to "
              f"go on, or `android-gym report {args.out}` for what is done", file=sys.stderr)
        return 130
    return _summarize(Path(args.out), records, args.agent)


def cmd_report(args: argparse.Namespace) -> int:
    """Summarize a run folder again (every episode recorded so far) and rewrite its CSV and HTML report."""
    import json

    run_dir = Path(args.run_dir)
    if not (run_dir / evaluation.RUN_FILE).is_file():
        raise RunDirError(f"{run_dir} is not an `android-gym eval` run folder (it has no {evaluation.RUN_FILE})")
    agent = json.loads((run_dir / evaluation.RUN_FILE).read_text(encoding="utf-8"))["agent"]
    return _summarize(run_dir, evaluation.latest(evaluation.read_results(run_dir / evaluation.RESULTS_FILE)), agent)


def _summarize(run_dir: Path, records: list[dict], agent: str) -> int:
    """Print the summary table, write summary.csv and the HTML report."""
    if not records:
        print(f"{run_dir}: no episode played yet")
        return 0
    rows = evaluation.summarize_records(records)
    print(evaluation.format_table(rows))
    csv_path = run_dir / evaluation.SUMMARY_FILE
    evaluation.write_csv(rows, csv_path)
    index = evaluation.write_report(run_dir, records, rows, agent)
    print(f"\nresults: {run_dir / evaluation.RESULTS_FILE}\nsummary: {csv_path}\nreport:  {index}")
    return 0


def _add_eval_commands(sub: argparse._SubParsersAction) -> None:
    """``android-gym eval SUITE --agent A --seeds N --out DIR [--workers K | --devices LIST] ...`` and
    ``android-gym report DIR``."""
    ev = sub.add_parser("eval", help="evaluate an agent over a suite of tasks (resumable; summary, CSV, HTML "
                                     "report)")
    ev.add_argument("suite", help="'androidworld' (its tasks registered here), 'long_horizon' (the cross-app suite), "
                               "'all', a glob ('Markor*'), a file listing task names, or task names; "
                               "comma-separate several")
    ev.add_argument("--agent", default="oracle", help=AGENT_HELP)
    ev.add_argument("--out", required=True, metavar="DIR",
                    help="run folder: results.jsonl, summary.csv, report/, episodes/; an existing one is "
                         "resumed (same --agent), playing only the episodes it lacks")
    ev.add_argument("--seeds", type=_positive_int, default=1, help="seeds per task (default 1)")
    ev.add_argument("--seed", type=int, default=0,
                    help="first seed: tasks reset with seed, seed + 1, ... (default 0); also seeds the agent")
    ev.add_argument("--workers", type=_positive_int, default=1,
                    help="parallel workers on --device, each a process with its own simulated phone "
                         "(default 1: in this process)")
    ev.add_argument("--device", default="sim", help="'sim' (default), 'sim:WIDTHxHEIGHT', 'adb:<serial>', ...")
    ev.add_argument("--devices", metavar="LIST",
                    help="comma-separated devices, one worker each (e.g. adb:emulator-5554,adb:emulator-5556); "
                         "SPEC@PLACE pins one to a Ray node (IP or custom resource) and runs the workers as Ray actors")
    ev.add_argument("--ray-address", metavar="ADDR",
                    help="run the workers as actors of this Ray cluster (auto, HOST:6379); the --out folder must be "
                         "on storage every host shares")
    ev.add_argument("--record-frames", action="store_true",
                    help="also keep each step's full-size screen (PNG) and UI tree (XML)")
    ev.add_argument("--no-oracle-metrics", action="store_true",
                    help="do not replay each task's oracle (AndroidArena's task reward, completion and "
                         "redundancy ratios need it; it costs one more episode each)")
    ev.add_argument("--limit", type=_positive_int, help="play at most this many new episodes, then stop")
    ev.add_argument("--retry-errors", action="store_true",
                    help="play again the episodes recorded with an error (the new record counts)")
    ev.set_defaults(func=cmd_eval)
    report = sub.add_parser("report", help="rewrite an eval run folder's summary, CSV and HTML report")
    report.add_argument("run_dir", help="the --out folder of `android-gym eval`")
    report.set_defaults(func=cmd_report)


def cmd_record(args: argparse.Namespace) -> int:
    """Replay the task's oracle over seeds into a Minari dataset and print a summary; exit 1 if seeds were skipped."""
    from android_gym.datasets import record_dataset

    result = record_dataset(_env_id(args.task), args.episodes, args.seed, dataset_id=args.dataset_id,
                            view=args.view, device=args.device, pixels=args.pixels,
                            device_config=args.device_config, data_path=args.data_path,
                            overwrite=args.overwrite, author=args.author, author_email=args.author_email,
                            code_permalink=args.code_permalink)
    print(result.summary())
    return 1 if result.skipped else 0


def _add_record_command(sub: argparse._SubParsersAction) -> None:
    """``android-gym record TASK [--episodes N] [--seed S] [--dataset-id ID] [--data-path DIR] [--view rl|raw] ...``."""
    record = sub.add_parser("record", help="replay the task's oracle over seeds into a Minari dataset (BC/offline RL)")
    record.add_argument("task", help="env id (AndroidWorld/SendSms-v0) or task name (SendSms)")
    record.add_argument("--episodes", type=_positive_int, default=100, help="episodes, one per seed (default 100)")
    record.add_argument("--seed", type=int, default=0, help="episode i resets with seed + i (default 0)")
    record.add_argument("--dataset-id", help="Minari id (default androidworld/<Task>/oracle-v1, oracle-raw-v0 raw)")
    record.add_argument("--data-path", metavar="DIR", help="datasets root (default: $MINARI_DATASETS_PATH or "
                                                           "~/.minari/datasets)")
    record.add_argument("--view", choices=("rl", "raw"), default="rl",
                        help="rl: make_rl_env's element ids and features (default); raw: the env's text "
                             "observations and AndroidWorld JSON actions")
    record.add_argument("--pixels", action="store_true",
                        help="raw view: keep the screen (JPEG in the dataset; Minari's metadata.json holds the "
                             "screen's bounds in full, 74 MB at 1080x2400: use a small --device sim:540x1200)")
    record.add_argument("--device", default="sim", help="'sim' (default), 'sim:WIDTHxHEIGHT', 'adb:<serial>', ...")
    record.add_argument("--device-config", help="configure the phone per episode: 'train' or 'heldout' (drawn from "
                                                "the seed; android_gym.device.config)")
    record.add_argument("--overwrite", action="store_true", help="replace a dataset with the same id")
    record.add_argument("--author", help="dataset metadata: author")
    record.add_argument("--author-email", help="dataset metadata: author's email")
    record.add_argument("--code-permalink", help="dataset metadata: link to the code version that made it")
    record.set_defaults(func=cmd_record)


def cmd_explore(args: argparse.Namespace) -> int:
    """Explore an app for ``--steps`` steps and merge what each element did into ``--out/<package>.json``."""
    from android_gym.appdocs import explore

    store, report = explore(args.app, args.steps, seed=args.seed, device=args.device, writer=_doc_writer(args))
    print(report.summary())
    print(f"docs: {store.save(args.out)}")
    return 0


def cmd_document(args: argparse.Namespace) -> int:
    """Write docs from demonstrations (AppAgent's second mode): a task's oracle over seeds, or recorded episodes
    replayed; merge them into ``--out/<package>.json``."""
    from android_gym.appdocs import DocStore
    from android_gym.appdocs.demo import document_oracle, document_recording, recorded_episodes

    writer = _doc_writer(args)
    if Path(args.source).exists():
        runs = [document_recording(episode, device=args.device, writer=writer)
                for episode in recorded_episodes(args.source)]
    else:
        task = android_gym.get_task(_env_id(args.source).split("/")[-1].removesuffix("-v0")).name
        runs = [document_oracle(task, range(args.seed, args.seed + args.seeds), device=args.device, writer=writer)]
    saved = {store.save(args.out) for stores in runs for store in stores.values()}
    for path in sorted(saved):
        print(f"docs: {path} ({len(DocStore.load(path))} elements documented)")
    return 0


def _doc_writer(args: argparse.Namespace):
    """The LLM writer when ``--model`` is given, else ``None`` (the rules)."""
    if not args.model:
        return None
    from android_gym.appdocs import LLMWriter
    from android_gym.llm import ChatClient

    return LLMWriter(ChatClient(args.model, base_url=args.base_url))


def _add_explore_command(sub: argparse._SubParsersAction) -> None:
    """``android-gym explore APP --out DIR [--steps N] [--seed S] [--model M --base-url URL]`` and
    ``android-gym document TASK|RECORDED --out DIR [--seeds N]``."""
    explore = sub.add_parser("explore", help="explore an app and write what its elements do (AppAgent's docs)")
    explore.add_argument("app", help="app name (markor, 'pro expense', sms, ...) or package")
    explore.add_argument("--out", required=True, metavar="DIR", help="docs folder: <package>.json, merged across runs")
    explore.add_argument("--steps", type=_positive_int, default=100, help="exploration steps (default 100)")
    explore.add_argument("--seed", type=int, default=0, help="seeds the app's data and the explorer (default 0)")
    explore.add_argument("--device", default="sim", help="'sim' (default), 'sim:WIDTHxHEIGHT', 'adb:<serial>', ...")
    _add_writer_arguments(explore)
    explore.set_defaults(func=cmd_explore)
    document = sub.add_parser("document", help="write app docs from demonstrations: a task's oracle or recorded "
                                               "episodes")
    document.add_argument("source", help="a task (its oracle is the demonstration), or a folder of episodes recorded "
                                         "by `run --record` or `eval` (replayed from their task and seed)")
    document.add_argument("--out", required=True, metavar="DIR", help="docs folder: <package>.json, merged")
    document.add_argument("--seeds", type=_positive_int, default=1, help="oracle episodes, one per seed (default 1)")
    document.add_argument("--seed", type=int, default=0, help="first seed of the oracle episodes (default 0)")
    document.add_argument("--device", default="sim", help="'sim' (default), 'sim:WIDTHxHEIGHT', 'adb:<serial>', ...")
    _add_writer_arguments(document)
    document.set_defaults(func=cmd_document)


def _add_writer_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", help="write the docs with this chat model (default: rules, no model)")
    parser.add_argument("--base-url", help="the model's OpenAI-compatible API (default: OpenAI's)")


def cmd_devices(args: argparse.Namespace) -> int:
    """Print the devices an env can use: the built-in simulated phone, then what the adb server lists."""
    import adbutils

    from android_gym.device.adb import server_address, server_answers

    print("sim\tsimulated phone (built in)")
    host, port = server_address()
    try:
        devices = adbutils.AdbClient(host, port, socket_timeout=5).list() if server_answers(host, port) else None
    except adbutils.AdbError as error:
        raise AdbServerError(f"the adb server on {host}:{port} failed to list devices: {error}") from error
    if devices is None:
        print(f"(no adb server on {host}:{port}; start one with `adb -P {port} start-server`)", file=sys.stderr)
        return 0
    for info in devices:
        print(f"adb:{info.serial}\t{info.state}")
    return 0


def _adb_keys(args: argparse.Namespace) -> list | None:
    """The adb host keys ``sim serve`` accepts (``None``: every host, no authentication)."""
    from android_gym.sim.adb_auth import AdbKeyError, authorized_keys, host_key_files

    if not args.adb_auth and not args.adb_keys:
        return None
    files = (host_key_files() if args.adb_auth else []) + [Path(file) for file in args.adb_keys]
    try:
        keys = authorized_keys(files)
    except AdbKeyError as error:
        raise ServerError(f"--adb-keys: {error}") from error
    if not keys:
        raise ServerError("--adb-auth found no adb key on this machine: run `adb start-server` once (it creates "
                          "~/.android/adbkey), or name the hosts' public keys with --adb-keys FILE")
    return keys


def cmd_sim_serve(args: argparse.Namespace) -> int:
    """Serve a simulated phone like an emulator until interrupted (SIGINT, SIGTERM) or killed through its console;
    then stop cleanly, leaving no files behind."""
    import asyncio
    import signal

    from android_gym.sim.phone import Phone
    from android_gym.sim.server import SimServer, is_loopback

    adb_keys = _adb_keys(args)
    grpc_token = secrets.token_urlsafe(32) if args.grpc_use_token and args.grpc_port is not None else None
    open_doors = [door for door, shut in (("a root adb shell", adb_keys is not None),
                                          ("the gRPC screenshots and input", args.grpc_port is None or grpc_token))
                  if not shut]
    if not is_loopback(args.host) and open_doors:
        exposure = f"--host {args.host} gives anyone who can reach it {' and '.join(open_doors)}, with no credentials"
        if not args.insecure:
            raise ServerError(f"{exposure}; turn on authentication (--adb-auth, and --grpc-use-token with "
                              "--grpc-port), serve on loopback (the default) and forward the ports (ssh -L), or "
                              "pass --insecure to accept that")
        print(f"android-gym: warning: {exposure}", file=sys.stderr, flush=True)
    width, height = args.size
    phone = Phone(width, height, animations=args.animate)
    try:
        server = SimServer(phone, adb_port=args.adb_port, console_port=args.console_port, host=args.host,
                           grpc_port=args.grpc_port, adb_keys=adb_keys, grpc_token=grpc_token)
    except ServerError:
        phone.close()
        raise

    def report_ports() -> None:
        """The ports served on, as bound."""
        grpc = f", gRPC on {args.host}:{server.grpc.port}" if server.grpc is not None else ""
        if grpc_token:
            from android_gym.device.discovery import discovery_dir
            grpc += f" (token in {discovery_dir() / f'pid_{os.getpid()}.ini'})"
        if adb_keys is not None:
            grpc += f"; adb hosts need one of {len(adb_keys)} key(s)"
        print(f"{server.serial}: adb on {args.host}:{server.adb_port}, console on {args.host}:{server.console_port}"
              f"{grpc} (Ctrl-C or `adb -s {server.serial} emu kill` to stop)", flush=True)

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, server.stop)
        await server.serve(report_ports)

    try:
        asyncio.run(serve())
    finally:
        server.phone.close()  # the phone served last (a gRPC RESET replaces it)
    return 0


def _size(text: str) -> tuple[int, int]:
    width, _, height = text.partition("x")
    if not (width.isdigit() and height.isdigit() and int(width) > 0 and int(height) > 0):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT like 1080x2400, got {text!r}")
    return int(width), int(height)


def _port(text: str) -> int:
    value = int(text)
    if not 0 < value < 65536:
        raise argparse.ArgumentTypeError(f"not a TCP port: {value}")
    return value


def _port_or_any(text: str) -> int:
    """A TCP port, or 0: any free one, which the server reports once it listens."""
    return 0 if int(text) == 0 else _port(text)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def cmd_emulator_start(args: argparse.Namespace) -> int:
    """Start an emulator for an AVD, wait until it has booted, and print the device string to use it."""
    from android_gym.emulator import start_emulator

    emulator = start_emulator(args.avd, console_port=args.console_port, grpc_port=args.grpc_port,
                              headless=not args.window, boot_timeout=args.timeout)
    print(f"{emulator.serial} booted (AVD {emulator.avd}, pid {emulator.pid}, log {emulator.log_path}); use "
          f"device='adb:{emulator.serial}?grpc=localhost:{emulator.grpc_port}'")
    return 0


def cmd_emulator_stop(args: argparse.Namespace) -> int:
    """Stop one emulator, or every one the adb server lists, through the console's ``kill``."""
    from android_gym.emulator import list_emulators, stop_emulator

    for serial in [emulator.serial for emulator in list_emulators()] if args.all else [args.serial]:
        stop_emulator(serial)
        print(f"{serial} stopped")
    return 0


def cmd_emulator_list(args: argparse.Namespace) -> int:
    """Print the running emulators: serial, AVD name, console and adb ports."""
    from android_gym.emulator import list_emulators

    for emulator in list_emulators():
        print(f"{emulator.serial}\t{emulator.avd or '?'}\tconsole {emulator.console_port}\tadb {emulator.adb_port}")
    return 0


def _add_emulator_commands(sub: argparse._SubParsersAction) -> None:
    """``android-gym emulator start|stop|list``."""
    emulator = sub.add_parser("emulator", help="start, stop and list Android emulators (the SDK's emulator binary)")
    commands = emulator.add_subparsers(dest="emulator_command", required=True)
    start = commands.add_parser("start", help="start an emulator and wait until it has booted")
    start.add_argument("avd", help="the AVD's name (`emulator -list-avds`)")
    start.add_argument("--console-port", type=_port, help="console port (default: first free from 5554; adb: +1)")
    start.add_argument("--grpc-port", type=_port, help="gRPC port (default: 8554 + the emulator's index)")
    start.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for the boot (default 300)")
    start.add_argument("--window", action="store_true", help="show the emulator's window (default: headless)")
    start.set_defaults(func=cmd_emulator_start)
    stop = commands.add_parser("stop", help="stop emulators through their console")
    which = stop.add_mutually_exclusive_group(required=True)
    which.add_argument("serial", nargs="?", help="the emulator's serial, e.g. emulator-5554")
    which.add_argument("--all", action="store_true", help="stop every emulator the adb server lists")
    stop.set_defaults(func=cmd_emulator_stop)
    commands.add_parser("list", help="list the running emulators").set_defaults(func=cmd_emulator_list)


def cmd_doctor(args: argparse.Namespace) -> int:
    """Check a device (and the emulator's gRPC service) and print one line per check with what to fix; exit 1
    when a check failed (warnings do not count)."""
    from android_gym.doctor import run_doctor

    checks = run_doctor(args.device, grpc=args.grpc)
    for check in checks:
        print(check.line())
    return 1 if any(check.status == "failed" for check in checks) else 0


def _add_doctor_command(sub: argparse._SubParsersAction) -> None:
    """``android-gym doctor [--device SPEC] [--grpc ADDR]``."""
    doctor = sub.add_parser("doctor", help="check that a device is ready for the tasks and say what to fix")
    doctor.add_argument("--device", help="the device to check: 'adb:<serial>' or 'adb:<host>:<port>' (default: the "
                                          "only device the running adb server lists; doctor starts no server to "
                                          "find one, and stops one it started for a named device)")
    doctor.add_argument("--grpc", metavar="ADDR", help="also check the emulator's gRPC service, e.g. localhost:8554")
    doctor.set_defaults(func=cmd_doctor)


def cmd_setup_device(args: argparse.Namespace) -> int:
    """Provision a device for the tasks (apps, permissions, fixed time, no animations, app data snapshots),
    printing each step."""
    from pathlib import Path

    from android_gym.device import open_device
    from android_gym.device.emulator_grpc import EmulatorGrpc
    from android_gym.device.provision import setup_device

    device = open_device(args.device)
    grpc = EmulatorGrpc(args.grpc) if args.grpc else None
    try:
        report = setup_device(device, apks=Path(args.apks) if args.apks else None, download=not args.no_download,
                              packages=args.packages, grpc=grpc)
    finally:
        device.close()
        if grpc is not None:
            grpc.close()
    print(f"{args.device}: set up" if report.changed else f"{args.device}: already set up, nothing to do")
    return 0


def _add_setup_device_command(sub: argparse._SubParsersAction) -> None:
    """``android-gym setup-device [--device SPEC] [--apks DIR] [--no-download] [--packages P ...]``."""
    setup = sub.add_parser("setup-device", help="install the tasks' apps on a device and prepare it for fast resets")
    setup.add_argument("--device", default="adb:emulator-5554",
                       help="the device to set up: 'adb:<serial>' or 'adb:<host>:<port>' (default adb:emulator-5554)")
    setup.add_argument("--apks", metavar="DIR", help="folder of APKs named <package>_<versionCode>.apk or "
                                                     "<package>.apk, used before downloading")
    setup.add_argument("--no-download", action="store_true", help="never download APKs (use --apks and the cache)")
    setup.add_argument("--packages", nargs="+", metavar="P", help="set up only these apps of the manifest")
    setup.add_argument("--grpc", metavar="ADDR", help="the emulator's gRPC address (localhost:8554): also save the "
                                                      "set-up emulator as snapshot android_gym_ready")
    setup.set_defaults(func=cmd_setup_device)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``android-gym``."""
    parser = argparse.ArgumentParser(prog="android-gym", description=__doc__)
    parser.add_argument("--version", action="version", version=android_gym.__version__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the registered tasks").set_defaults(func=cmd_list)
    run = sub.add_parser("run", help="run an agent on a task")
    run.add_argument("task", help="env id (AndroidWorld/SendSms-v0) or task name (SendSms)")
    run.add_argument("--agent", default="oracle", help=AGENT_HELP)
    run.add_argument("--episodes", type=_positive_int, default=1)
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--device", default="sim",
                     help="'sim' (default), 'sim:WIDTHxHEIGHT', 'adb:<serial>', 'adb:<host>:<port>' (either with "
                          "?grpc=HOST:PORT for the emulator's gRPC) or 'emulator:<AVD>'")
    run.add_argument("--record", metavar="DIR", help="write goal, task/seed/params, JSONL trajectory and GIF per "
                                                     "episode here")
    run.add_argument("--record-frames", action="store_true", help="with --record: also each step's full-size "
                                                                  "screen (PNG) and UI tree (XML)")
    run.set_defaults(func=cmd_run)
    _add_record_command(sub)
    _add_eval_commands(sub)
    _add_explore_command(sub)
    sub.add_parser("devices", help="list the devices an env can use").set_defaults(func=cmd_devices)
    sim = sub.add_parser("sim", help="the simulated phone").add_subparsers(dest="sim_command", required=True)
    serve = sim.add_parser("serve", help="serve a simulated phone like an emulator (adb device + console)")
    serve.add_argument("--adb-port", type=_port,
                       help="adb port (default: as an emulator, the first free pair from 5554/5555 up to 5584/5585, "
                            "console on the even port: 5555 → emulator-5554)")
    serve.add_argument("--console-port", type=_port,
                       help="emulator console port (default: adb port - 1; given alone, the adb port is one above "
                            "it, as the emulator's -port)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default: loopback only; another one needs authentication or "
                            "--insecure)")
    serve.add_argument("--insecure", action="store_true",
                       help="allow a non-loopback --host without authentication: anyone who reaches it gets a root "
                            "shell")
    serve.add_argument("--adb-auth", action="store_true",
                       help="adb RSA key authentication: accept only hosts holding this machine's adb keys "
                            "(~/.android/adbkey, ADB_VENDOR_KEYS) or those of --adb-keys")
    serve.add_argument("--adb-keys", action="append", default=[], metavar="FILE",
                       help="accept the adb hosts whose public keys this file holds (adb_keys format: adbkey.pub "
                            "lines); turns on adb authentication; repeatable")
    serve.add_argument("--grpc-use-token", action="store_true",
                       help="as the emulator's -grpc-use-token: gRPC calls need the random token published in the "
                            "emulator discovery file ($XDG_RUNTIME_DIR/avd/running/pid_<pid>.ini)")
    serve.add_argument("--size", type=_size, default=(1080, 2400), help="screen WIDTHxHEIGHT (default 1080x2400)")
    serve.add_argument("--grpc-port", type=_port_or_any,
                       help="also serve the emulator's gRPC services on this port (8554; 0: a free one, reported)")
    serve.add_argument("--animate", action="store_true",
                       help="animate screen transitions while the animation scale settings are on")
    serve.set_defaults(func=cmd_sim_serve)
    _add_emulator_commands(sub)
    _add_doctor_command(sub)
    _add_setup_device_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; configuration errors print a one-line message and exit 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "run" and args.record_frames and not args.record:
        parser.error("--record-frames needs --record DIR")
    if ":" in getattr(args, "agent", ""):  # `--agent my_agents:make`: look in the current folder too, as `python -m`
        sys.path.insert(0, os.getcwd())
    try:
        return args.func(args)
    except AndroidGymError as error:
        print(f"android-gym: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
