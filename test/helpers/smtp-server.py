# A real SMTP server for the e-mail notifications' tests: Debian's aiosmtpd, on 127.0.0.1.
# Usage: smtp-server.py PORT OUTDIR [CERT KEY USER PASSWORD]
# With a certificate it offers STARTTLS and requires it, and AUTH (PLAIN, LOGIN) only over TLS
# with the given user and password. Each message is written to OUTDIR as a JSON file
# {"from", "to", "data", "tls", "auth"}; "listening" is printed once it accepts connections.
import json, os, ssl, sys, time, uuid
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

port, outdir = int(sys.argv[1]), sys.argv[2]
tls_args = {}
if len(sys.argv) > 3:
    cert, key, user, password = sys.argv[3:7]
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    def authenticator(server, session, envelope, mechanism, data):
        ok = data.login.decode() == user and data.password.decode() == password
        return AuthResult(success=ok, handled=False)

    tls_args = dict(tls_context=context, require_starttls=True, auth_required=True,
                    auth_require_tls=True, authenticator=authenticator)


class Keep:
    async def handle_DATA(self, server, session, envelope):
        record = {
            'from': envelope.mail_from,
            'to': envelope.rcpt_tos,
            'data': envelope.content.decode('utf8', 'replace'),
            'tls': session.ssl is not None,
            'auth': bool(session.authenticated),
        }
        path = os.path.join(outdir, f'{uuid.uuid4().hex}.json')
        with open(path + '.tmp', 'w') as f:
            json.dump(record, f)
        os.rename(path + '.tmp', path)
        return '250 kept'


controller = Controller(Keep(), hostname='127.0.0.1', port=port, **tls_args)
controller.start()
print('listening', flush=True)
try:
    while True:
        time.sleep(3600)
finally:
    controller.stop()
