"""A rule deviation, not a protocol fault: every action is accepted. A legal action is applied by
the reference engine; an illegal one is answered `accepted` and changes nothing. The runner must
report the first refusal step as *failed* (expected refused, got accepted), not as errored."""
import sys

from _faulty import answer, serve


def fault(request, args, adapter):
    reply = adapter.handle(request)
    if reply.get("result") == "refused":
        reply = {"seq": request["seq"], "result": "accepted"}
    answer(reply)
    return True


if __name__ == "__main__":
    sys.exit(serve(fault, when=lambda request, args: request.get("cmd") == "apply"))
