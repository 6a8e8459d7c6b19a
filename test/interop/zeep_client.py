"""Calls the reference service with python3-zeep, from its served WSDL, over SOAP 1.1 and 1.2.

Builds the AuthenticationHeader itself (HMAC-SHA1 of operation + timestamp, base64). Input: a JSON
file {"wsdl", "apiKey", "secret", "calls": [{"operation", "params", "kinds"}], "booking": {...}}.
Prints one JSON object with the calls made and any failures.
"""
import base64
import datetime
import hashlib
import hmac
import json
import sys

import zeep

spec = json.load(open(sys.argv[1]))
client = zeep.Client(spec["wsdl"])
header_type = client.get_element("ns0:AuthenticationHeader")
last = [datetime.datetime.now(datetime.timezone.utc)]


def header(operation):
    # Strictly increasing timestamps: the service refuses a repeated one as a replay.
    now = max(datetime.datetime.now(datetime.timezone.utc), last[0] + datetime.timedelta(milliseconds=1))
    last[0] = now
    stamp = now.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (now.microsecond // 1000)
    digest = hmac.new(spec["secret"].encode("utf-8"), (operation + stamp).encode("utf-8"), hashlib.sha1).digest()
    return header_type(Timestamp=stamp, Operation=operation, Signature=base64.b64encode(digest).decode("ascii"), APIKey=spec["apiKey"])


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
    booking = spec["booking"]
    try:
        made = service.SubmitSimpleBookingWithBookingStatus(**booking, _soapheaders=[header("SubmitSimpleBookingWithBookingStatus")])
        service.CancelBooking(bookingReference=made["BookingReference"], _soapheaders=[header("CancelBooking")])
        calls += 2
    except Exception as e:  # noqa: BLE001
        failures.append("%s booking: %s" % (port, e))

print(json.dumps({"calls": calls, "failures": failures}))
