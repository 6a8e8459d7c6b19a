"""Calls operations that answer faults with python3-zeep, over SOAP 1.1 and 1.2, and reports how
zeep read each one: the SOAP fault code, the message and the ErrorCode of the detail.

Input: a JSON file {"wsdl", "apiKey", "secret", "operations": {name: params}}. Prints a JSON list.
"""
import json
import sys

import zeep
import zeep.exceptions

from zeep_auth import header_maker

spec = json.load(open(sys.argv[1]))
client = zeep.Client(spec["wsdl"])
header = header_maker(client, spec["apiKey"], spec["secret"])

out = []
for port in ("ServiceAPISoap", "ServiceAPISoap12"):
    service = client.bind("ServiceAPI", port)
    for op, params in spec["operations"].items():
        seen = {"port": port, "operation": op}
        try:
            getattr(service, op)(**params, _soapheaders=[header(op)])
            seen["answer"] = "no fault"
        except zeep.exceptions.Fault as f:
            detail = f.detail
            codes = [] if detail is None else [e.text for e in detail.iter() if e.tag.endswith("}ErrorCode")]
            seen.update(code=f.code, message=f.message, errorCode=codes[0] if codes else None)
        except Exception as e:  # noqa: BLE001 - report what zeep raised instead
            seen["answer"] = "%s: %s" % (type(e).__name__, e)
        out.append(seen)
print(json.dumps(out))
