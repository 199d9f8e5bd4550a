"""The protocol client's old single module, split by job (kept for the importers outside this
floor until merge: tools/fuzz.py, tools/mutation.py, tests/test_mutants.py). New code imports
from the modules themselves:

* conquian_ref.conformance.transport: the adapter process, its pipes, timeouts, stderr tail;
* conquian_ref.conformance.client: Connection, Handshake, pipelining, the direct mode;
* conquian_ref.conformance.failures: AdapterFailure and its kinds;
* conquian_ref.conformance.driver: ImplementationDriver, deck_order, hands_and_stock;
* conquian_ref.conformance.protocol: PROTOCOL_VERSION, capabilities, commands, validation.
"""

from .client import DEFAULT_TIMEOUT, PIPELINE_BYTES, REFERENCE, Connection, Handshake, describe_command
from .driver import ImplementationDriver, deck_order, hands_and_stock
from .failures import AdapterFailure
from .protocol import PROTOCOL_VERSION
from .transport import MAX_LINE, STDERR_TAIL

__all__ = [
    "DEFAULT_TIMEOUT", "PIPELINE_BYTES", "REFERENCE", "Connection", "Handshake", "describe_command",
    "ImplementationDriver", "deck_order", "hands_and_stock", "AdapterFailure", "PROTOCOL_VERSION",
    "MAX_LINE", "STDERR_TAIL",
]
