"""The protocol's names are said once (conquian_ref.conformance.protocol) and agree with its
schema; the failure kinds are the ones the client, transport and driver raise; a malformed
message is caught by `--validate-messages`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conquian_ref.conformance import client, driver, failures, protocol, transport
from conquian_ref.conformance.adapter import ReferenceAdapter
from conquian_ref.engine.errors import ConquianError

SCHEMA = json.loads((Path(__file__).parent.parent / "schema" / "protocol.schema.json").read_text(encoding="utf-8"))
CONFORMANCE = Path(protocol.__file__).parent


def test_commands_are_the_schemas_requests_and_answers():
    assert set(protocol.COMMANDS) == set(SCHEMA["$defs"]["requests"]) == set(SCHEMA["$defs"]["answer_to"])


def test_capabilities_are_the_schemas_and_the_reference_declares_them_all():
    enum = SCHEMA["$defs"]["answers"]["start"]["properties"]["capabilities"]["items"]["enum"]
    assert set(protocol.CAPABILITIES) == set(enum)
    assert protocol.REQUIRED <= set(protocol.CAPABILITIES)
    assert set(protocol.CHECK_CAPABILITIES.values()) | {protocol.MATCH} <= set(protocol.CAPABILITIES)
    answer = ReferenceAdapter().handle({"seq": 1, "cmd": "start", "version": protocol.PROTOCOL_VERSION})
    assert set(answer["capabilities"]) == set(protocol.CAPABILITIES) and answer["version"] == protocol.PROTOCOL_VERSION


def test_every_answer_key_is_required_by_the_schema():
    for cmd, command in protocol.COMMANDS.items():
        keys = command.answer
        answer, _error = (_resolved(form) for form in SCHEMA["$defs"]["answer_to"][cmd]["oneOf"])
        for form in answer.get("oneOf", [answer]):  # `apply`: accepted or refused
            assert set(keys) <= set(_resolved(form)["required"]), cmd


def _resolved(node: dict) -> dict:
    """`node`, with a local `$ref` ("#/$defs/...") followed."""
    if "$ref" not in node:
        return node
    target = SCHEMA
    for part in node["$ref"].removeprefix("#/").split("/"):
        target = target[part]
    return _resolved(target)


def test_the_protocol_version_and_capabilities_are_written_in_one_module():
    for path in CONFORMANCE.glob("*.py"):
        if path.name != "protocol.py":
            text = path.read_text(encoding="utf-8")
            assert "PROTOCOL_VERSION =" not in text and '"legal_actions", "perft"' not in text, path.name


def test_every_command_is_one_declaration_that_the_adapter_the_driver_and_the_reference_answer():
    from conquian_ref.conformance.reference import Reference

    for name, command in protocol.COMMANDS.items():
        answer = ReferenceAdapter().handle({"seq": 1, "cmd": name})
        assert "unknown command" not in json.dumps(answer), name
        if name not in ("start", "stop"):  # the driver calls, one per deal or match request
            assert callable(getattr(Reference, name)) and callable(getattr(driver.ImplementationDriver, name)), name
    assert protocol.CHECK_CAPABILITIES == {kind: protocol.COMMANDS[kind].capability for kind in protocol.CHECK_CAPABILITIES}


def test_a_new_query_command_is_one_declaration_and_one_reference_method(monkeypatch):
    from conquian_ref.conformance.reference import Reference

    declared = protocol.Command("hand_size", ("seat",), ("size",), lambda v: isinstance(v, int), "an integer")
    monkeypatch.setitem(protocol.COMMANDS, "hand_size", declared)
    monkeypatch.setattr(Reference, "hand_size", lambda self, seat: len(self.state()["hands"][seat]), raising=False)
    conn = client.Connection("reference")
    conn.start()
    scenario = _one_scenario()
    drive = driver.ImplementationDriver(conn)
    drive.setup(scenario.profile, scenario.data["setup"])
    assert drive._request("hand_size", 1) == len(drive.state()["hands"][1]) > 0  # no handler, no driver code
    with pytest.raises(failures.ErrorAnswer, match="a seat is"):
        drive._request("hand_size", 7)  # the declared seat field is checked as every seat is


def test_every_adapter_failure_raised_is_one_documented_class_per_kind():
    classes = {cls.__name__ for cls in failures.FAILURES.values()}
    raised = set()
    for module in (client, driver, transport):
        text = Path(module.__file__).read_text(encoding="utf-8")
        raised |= set(re.findall(r"raise (\w+)\(", text)) & (classes | {"AdapterFailure"})
    assert raised == classes  # every class raised somewhere, never the bare base class
    assert len(failures.FAILURES) == len(failures.FailureKind)  # one class per kind
    for kind, cls in failures.FAILURES.items():
        assert f"`{cls.__name__}`" in failures.__doc__ and cls.kind == kind and kind in failures.KINDS


def test_a_bad_answer_names_its_command():
    class NoState(ReferenceAdapter):
        def cmd_state(self, request):
            return {"status": "fine"}

    conn = client.Connection("reference")
    conn.start()
    conn._direct = NoState()
    drive = driver.ImplementationDriver(conn)
    with pytest.raises(failures.AdapterFailure) as caught:
        drive.state()
    assert caught.value.kind == "bad_answer" and caught.value.signature == "bad_answer on state"
    [answer] = drive.batch([("state",)])
    assert isinstance(answer, failures.AdapterFailure) and answer.signature == "bad_answer on state"


def test_the_message_validator_refuses_a_malformed_answer():
    validate = protocol.MessageValidator()
    validate("request", {"seq": 1, "cmd": "state"})
    with pytest.raises(ConquianError, match="protocol violation in the answer for 'state'"):
        validate("answer", {"seq": 1, "state": 5})


# -- running the command ---------------------------------------------------------------------
ADAPTERS = Path(__file__).parent / "adapters"
REPO = Path(__file__).resolve().parents[1]


def _one_scenario():
    from conquian_ref.spec.scenario import load_scenario

    (path,) = sorted((REPO / "scenarios").glob("*/*/tc-0001-*.yaml"))
    return load_scenario(path)


def test_the_command_runs_as_a_shell_command_line_as_written(tmp_path):
    import shlex
    import sys

    from conquian_ref.conformance.check import run_check

    # `cd DIR && VAR=1 cmd`: a compound command with an assignment, exactly as a user types it.
    script = tmp_path / "adapter.sh"
    script.write_text(f'[ "$CONQUIAN_TEST" = 1 ] || exit 7\nexec {shlex.quote(sys.executable)} -m conquian_ref.adapter\n')
    command = f"cd {shlex.quote(str(tmp_path))} && CONQUIAN_TEST=1 sh adapter.sh"
    run = run_check(impl=command, scenarios=[_one_scenario()], timeout=20)
    assert [r.status for r in run.results] == ["passed"], [str(r.adapter) for r in run.results]


def test_a_failed_handshake_keeps_the_last_20_lines_of_stderr():
    from conquian_ref.conformance.check import run_check

    command = "for i in $(seq 1 40); do echo \"line $i of the adapter's complaint\" >&2; done; exit 1"
    with pytest.raises(ConquianError) as caught:
        run_check(impl=command, scenarios=[_one_scenario()], timeout=5)
    text = str(caught.value)
    assert "\n" not in text
    assert all(f"line {i} of the adapter's complaint" in text for i in range(21, 41)), text


class ErrorsOnState(ReferenceAdapter):
    """Answers the first `state` request of each process with an error, so that the rest of a
    pipelined batch is left unanswered when the runner restarts it."""

    def handle(self, request):
        if request.get("cmd") == "state" and not getattr(self, "struck", False):
            self.struck = True
            return {"seq": request.get("seq"), "error": {"message": "no state today"}}
        return super().handle(request)


def test_validate_messages_is_correct_across_restarts(tmp_path):
    import shlex
    import sys

    from conquian_ref.conformance.check import run_check
    from conquian_ref.spec.scenario import load_scenario

    (tmp_path / "errs.py").write_text(
        "import sys\nsys.path.insert(0, %r)\nfrom conquian_ref.conformance.adapter import serve\n"
        "from test_protocol import ErrorsOnState\nimport conquian_ref.conformance.adapter as a\n"
        "a.ReferenceAdapter = ErrorsOnState\nserve()\n" % str(Path(__file__).parent)
    )
    paths = [sorted((REPO / "scenarios").glob(f"*/*/{sid}-*.yaml"))[0] for sid in ("tc-0001", "tc-0013", "tc-0016")]
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(tmp_path / 'errs.py'))}"
    run = run_check(impl=command, scenarios=[load_scenario(p) for p in paths], timeout=20, validate_messages=True)
    # Every scenario errors on its first state request (each after a restart), and no protocol
    # violation is claimed: before, the requests queued before a restart were matched against
    # the new process's answers.
    assert [r.status for r in run.results] == ["errored"] * 3
    assert {r.adapter.kind for r in run.results} == {"error"}


def test_python_impl_imports_from_the_working_directory(tmp_path, monkeypatch):
    from conquian_ref.conformance.check import run_check

    package = tmp_path / "my_engine_issue13"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "adapter.py").write_text("from conquian_ref.conformance.adapter import ReferenceAdapter as Adapter\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path", [p for p in __import__("sys").path if p not in ("", str(tmp_path))])
    run = run_check(impl="python:my_engine_issue13.adapter:Adapter", scenarios=[_one_scenario()])
    assert [r.status for r in run.results] == ["passed"]


def test_python_impl_not_found_says_how_to_fix_it(tmp_path, monkeypatch):
    from conquian_ref.conformance.check import run_check

    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConquianError) as caught:
        run_check(impl="python:no_such_engine_issue13.adapter:Adapter", scenarios=[_one_scenario()])
    assert "run from the folder that holds 'no_such_engine_issue13', or put that folder on PYTHONPATH" in str(caught.value)


def test_the_in_process_reference_gives_the_adapter_process_results_on_the_whole_corpus():
    """The bundled reference runs in process without copying its messages through JSON
    (client.Connection._direct_exchange). That is sound only while its answers are fresh JSON
    values and it leaves the runner's requests alone: then the whole corpus over the adapter
    process (every message through a pipe as JSON) passes scenario by scenario as in process,
    with the same failures, and a second in-process run over the same loaded scenarios (which
    a request changed by the adapter would spoil) agrees too."""
    import shlex
    import sys

    from conquian_ref.conformance.check import run_check
    from conquian_ref.spec.scenario import load_corpus

    scenarios, problems = load_corpus([Path(__file__).parent.parent / "scenarios"])
    assert not problems and len(scenarios) > 400

    def outcomes(run):
        return [(r.scenario.id, r.status, str(r.failure), str(r.adapter)) for r in run.results]

    in_process = outcomes(run_check(scenarios=scenarios))
    assert {status for _id, status, _f, _a in in_process} == {"passed"}
    assert outcomes(run_check(scenarios=scenarios)) == in_process
    over_a_pipe = run_check(impl=f"{shlex.quote(sys.executable)} -m conquian_ref.adapter", scenarios=scenarios, timeout=60)
    assert outcomes(over_a_pipe) == in_process
