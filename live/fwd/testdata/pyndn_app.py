# A python-ndn producer (serve) or consumer (fetch) for ndncc's tests. The
# keychain is made in $HOME/.ndn (a temporary HOME) on first use.
import os
import sys

from ndn.app import NDNApp
from ndn.client_conf import default_keychain
from ndn.encoding import Name
from ndn.security import KeychainSqlite3

CONTENT = b'hello from python-ndn'


def keychain():
    base = os.path.join(os.path.expanduser('~'), '.ndn')
    pib, tpm = os.path.join(base, 'pib.db'), os.path.join(base, 'ndnsec-key-file')
    if not os.path.exists(pib):
        KeychainSqlite3.initialize(pib, 'tpm-file', tpm)
    kc = default_keychain('pib-sqlite3:' + base, 'tpm-file:' + tpm)
    kc.touch_identity('/ndncc-test')
    return kc


def serve():
    app = NDNApp(keychain=keychain())

    @app.route('/py/file')
    def on_interest(name, _param, _app_param):
        app.put_data(name, content=CONTENT, freshness_period=1000)

    async def ready():
        print('registered', flush=True)

    app.run_forever(after_start=ready())


def fetch():
    app = NDNApp(keychain=keychain())
    result = {}

    async def main():
        try:
            name, _meta, content = await app.express_interest(
                '/py/file/a', must_be_fresh=True, can_be_prefix=False, lifetime=4000)
            result['ok'] = bytes(content) == CONTENT
            print('fetched', Name.to_str(name), bytes(content).decode(), flush=True)
        except Exception as e:  # reported, then a non-zero exit
            print('fetch failed:', type(e).__name__, e, flush=True)
        finally:
            app.shutdown()

    app.run_forever(after_start=main())
    sys.exit(0 if result.get('ok') else 1)


if __name__ == '__main__':
    {'serve': serve, 'fetch': fetch}[sys.argv[1]]()
