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
    for cmd, keys in protocol.ANSWER_KEYS.items():
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


def test_every_failure_kind_raised_is_a_documented_kind():
    raised = set()
    for module in (client, driver, transport):
        text = Path(module.__file__).read_text(encoding="utf-8")
        raised |= set(re.findall(r'AdapterFailure\("(\w+)"', text))
    assert raised and raised <= set(failures.KINDS)
    for kind in failures.KINDS:
        assert f"| {kind}" in failures.__doc__


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
