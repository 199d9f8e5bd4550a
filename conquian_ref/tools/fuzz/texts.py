"""The bytes the fuzzer writes and the bytes it expects back (lockstep.py).

Each request of a game is written by the fuzzer as the JSON text the connection would write from
its fields (client.REQUEST_ENCODER's bytes), and each answer the reference adapter would give is
written beside it (adapter.ANSWER_ENCODER's bytes), so that an implementation answering exactly
those bytes needs no parsing or judging (docs/fuzzing.md, "What is compared"). Written by hand
for the few shapes there are: at every step of every game, where the encoders cost several times
as much for so small an object; tests/test_fuzz_answer_bytes.py holds both texts to the
encoders' bytes.
"""

from __future__ import annotations

from json.encoder import encode_basestring_ascii

from ...conformance.adapter import ACCEPTED, ANSWER_ENCODER
from ...conformance.client import REQUEST_ENCODER

# The reference adapter's answer to each kind of check, after its seq ({"seq": seq, **answer});
# to an accepted action, its own ACCEPTED.
ANSWER = {  # but `apply`'s (ACCEPTED, or `refused`)
    "setup": lambda check: ',"ok":true}',
    "legal": lambda check: f',"legal":{ANSWER_ENCODER.encode(check[5])}}}',
    "state": lambda check: f',"state":{ANSWER_ENCODER.encode(check[5])}}}',
}


def action_text(action: dict) -> str:
    """An action's JSON text as the connection writes it (REQUEST_ENCODER's bytes), written by
    hand for the shapes actions have (text, and lists of text): at every illegal step of every
    game, and the encoder costs three times as much for so small an object."""
    members = []
    for key, value in action.items():
        if type(value) is str:
            text = encode_basestring_ascii(value)
        elif type(value) is list and all(type(v) is str for v in value):
            text = "[" + ",".join(map(encode_basestring_ascii, value)) + "]"
        else:  # no action has another shape; the encoder writes it whatever it is
            return REQUEST_ENCODER.encode(action)
        members.append(f"{encode_basestring_ascii(key)}:{text}")
    return "{" + ",".join(members) + "}"


def refused(reason: str, message: str) -> str:
    """The reference adapter's answer to an action the reference refused, after its seq."""
    return f',"result":"refused","reason":{ANSWER_ENCODER.encode(reason)},"message":{ANSWER_ENCODER.encode(message)}}}'
