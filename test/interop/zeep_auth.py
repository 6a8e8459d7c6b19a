"""The AuthenticationHeader for python3-zeep calls: HMAC-SHA1 of operation + timestamp, base64,
with strictly increasing timestamps (the service refuses a repeated one as a replay)."""
import base64
import datetime
import hashlib
import hmac


def header_maker(client, api_key, secret):
    header_type = client.get_element("ns0:AuthenticationHeader")
    last = [datetime.datetime.now(datetime.timezone.utc)]

    def header(operation):
        now = max(datetime.datetime.now(datetime.timezone.utc), last[0] + datetime.timedelta(milliseconds=1))
        last[0] = now
        stamp = now.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (now.microsecond // 1000)
        digest = hmac.new(secret.encode("utf-8"), (operation + stamp).encode("utf-8"), hashlib.sha1).digest()
        return header_type(Timestamp=stamp, Operation=operation, Signature=base64.b64encode(digest).decode("ascii"), APIKey=api_key)

    return header
