"""Calls the reference service with python3-zeep, from its served WSDL, over SOAP 1.1 and 1.2.

Builds the AuthenticationHeader itself (zeep_auth.py). Input: a JSON
file {"wsdl", "apiKey", "secret", "calls": [{"operation", "params", "kinds"}], "booking": {...}}
("booking" optional). Prints one JSON object with the calls made, any failures, and the SHA-256
of every answer body exactly as zeep received it.
"""
import datetime
import hashlib
import json
import sys

import zeep
from zeep.transports import Transport

from zeep_auth import header_maker


class Recording(Transport):
    """A zeep transport that keeps the digest of each POST answer's raw bytes."""

    def __init__(self):
        super().__init__()
        self.digests = []

    def post(self, address, message, headers):
        response = super().post(address, message, headers)
        self.digests.append(hashlib.sha256(response.content).hexdigest())
        return response


spec = json.load(open(sys.argv[1]))
transport = Recording()
client = zeep.Client(spec["wsdl"], transport=transport)
header = header_maker(client, spec["apiKey"], spec["secret"])


def value(kind, v):
    return datetime.datetime.fromisoformat(v) if kind == "dateTime" else v


calls, failures = 0, []
for port in ("ServiceAPISoap", "ServiceAPISoap12"):
    service = client.bind("ServiceAPI", port)
    for call in spec["calls"]:
        op = call["operation"]
        params = {k: value(call["kinds"][k], v) for k, v in call["params"].items()}
        try:
            getattr(service, op)(**params, _soapheaders=[header(op)])
            calls += 1
        except Exception as e:  # noqa: BLE001 - report every failure, keep going
            failures.append("%s %s: %s" % (port, op, e))
    booking = spec.get("booking")
    if booking is None:
        continue
    try:
        made = service.SubmitSimpleBookingWithBookingStatus(**booking, _soapheaders=[header("SubmitSimpleBookingWithBookingStatus")])
        service.CancelBooking(bookingReference=made["BookingReference"], _soapheaders=[header("CancelBooking")])
        calls += 2
    except Exception as e:  # noqa: BLE001
        failures.append("%s booking: %s" % (port, e))

print(json.dumps({"calls": calls, "failures": failures, "digests": transport.digests}))
