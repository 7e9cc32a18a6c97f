"""A small but real OpenID Connect provider for tests.

Its own FastAPI app, served by uvicorn in a background thread on 127.0.0.1 and a free port:
discovery (``/.well-known/openid-configuration``), ``/authorize`` (authorization-code flow with
PKCE S256; no login page: it approves the configured ``user`` at once), ``/token`` (client
authentication by ``client_secret_basic`` or ``client_secret_post``, single-use codes, PKCE
verifier, redirect URI), ``/jwks`` and ``/userinfo``. ID tokens are RS256-signed with an RSA key
generated at start (joserfc, the JOSE library Authlib itself uses to verify them).

Knobs for tests: ``user`` (who signs in), ``client_secret`` (what the provider expects),
``deny`` (answer ``access_denied``), ``id_token_overrides`` (claims to replace in the ID token),
``signing_key`` (sign with a key that is not in the JWKS), ``profile_in_id_token`` (False: the ID
token carries only the registered claims; email and names come from UserInfo)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote_plus, urlencode

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from joserfc import jwt
from joserfc.jwk import RSAKey

CLAIMS_SUPPORTED = (
    "iss sub aud exp iat auth_time nonce at_hash email email_verified given_name name"
)


@dataclass
class ProviderUser:
    sub: str = "provider-user-1"
    email: str | None = "oidc@example.com"
    email_verified: bool = True
    given_name: str = "Olu"
    name: str = "Olu Okafor"


@dataclass
class Grant:
    client_id: str
    redirect_uri: str
    scope: list[str]
    nonce: str | None
    code_challenge: str
    user: ProviderUser
    expires_at: float


@dataclass
class AccessGrant:
    user: ProviderUser
    scope: list[str]
    expires_at: float


def s256(verifier: str) -> str:
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def _half_hash(value: str) -> str:
    digest = hashlib.sha256(value.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode("ascii")


def _add_query(uri: str, params: dict[str, str]) -> str:
    return uri + ("&" if "?" in uri else "?") + urlencode(params)


@dataclass
class LocalOIDCProvider:
    client_id: str
    client_secret: str
    redirect_uris: list[str]
    user: ProviderUser = field(default_factory=ProviderUser)
    deny: bool = False
    id_token_overrides: dict[str, Any] = field(default_factory=dict)
    signing_key: RSAKey | None = None
    profile_in_id_token: bool = True
    code_seconds: int = 60
    id_token_seconds: int = 300

    def __post_init__(self) -> None:
        self.key = RSAKey.generate_key(
            2048, parameters={"use": "sig", "alg": "RS256"}, auto_kid=True
        )
        self.codes: dict[str, Grant] = {}
        self.access_tokens: dict[str, AccessGrant] = {}
        #: what the provider saw, for assertions: authorization requests and token outcomes
        self.authorize_requests: list[dict[str, str]] = []
        self.token_results: list[str] = []
        self.url = ""
        self._lock = threading.Lock()
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.app = self._make_app()

    # --- running -------------------------------------------------------------------------------

    def start(self) -> LocalOIDCProvider:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, name="oidc-provider", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test OpenID Connect provider did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)
        self._server = self._thread = None

    def __enter__(self) -> LocalOIDCProvider:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def issuer(self) -> str:
        return self.url

    @property
    def metadata_url(self) -> str:
        return self.url + "/.well-known/openid-configuration"

    # --- the protocol --------------------------------------------------------------------------

    def _make_app(self) -> FastAPI:
        app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)

        @app.get("/.well-known/openid-configuration")
        async def discovery() -> dict[str, Any]:
            return {
                "issuer": self.issuer,
                "authorization_endpoint": self.url + "/authorize",
                "token_endpoint": self.url + "/token",
                "userinfo_endpoint": self.url + "/userinfo",
                "jwks_uri": self.url + "/jwks",
                "response_types_supported": ["code"],
                "grant_types_supported": ["authorization_code"],
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"],
                "scopes_supported": ["openid", "email", "profile"],
                "token_endpoint_auth_methods_supported": [
                    "client_secret_basic",
                    "client_secret_post",
                ],
                "code_challenge_methods_supported": ["S256"],
                "claims_supported": CLAIMS_SUPPORTED.split(),
            }

        @app.get("/jwks")
        async def jwks() -> dict[str, Any]:
            return {"keys": [self.key.as_dict(private=False)]}

        @app.get("/authorize")
        async def authorize(request: Request) -> Response:
            return self._authorize(dict(request.query_params))

        @app.post("/token")
        async def token(request: Request) -> Response:
            form = await request.form()
            params = {k: v for k, v in form.items() if isinstance(v, str)}
            response = self._token(request.headers.get("authorization", ""), params)
            response.headers["cache-control"] = "no-store"
            response.headers["pragma"] = "no-cache"
            return response

        @app.api_route("/userinfo", methods=["GET", "POST"])
        async def userinfo(request: Request) -> Response:
            return self._userinfo(request.headers.get("authorization", ""))

        return app

    def _authorize(self, q: dict[str, str]) -> Response:
        self.authorize_requests.append(q)
        redirect_uri = q.get("redirect_uri", "")
        # an unknown client or redirect URI is never redirected to (RFC 6749 section 4.1.2.1)
        if q.get("client_id") != self.client_id:
            return PlainTextResponse("unknown client_id", status_code=400)
        if redirect_uri not in self.redirect_uris:
            return PlainTextResponse("redirect_uri is not registered", status_code=400)

        def error(code: str, description: str) -> Response:
            params = {"error": code, "error_description": description}
            if "state" in q:
                params["state"] = q["state"]
            return RedirectResponse(_add_query(redirect_uri, params), status_code=302)

        scope = q.get("scope", "").split()
        if q.get("response_type") != "code":
            return error("unsupported_response_type", "only the code flow is supported")
        if "openid" not in scope:
            return error("invalid_scope", "openid scope required")
        if not q.get("code_challenge") or q.get("code_challenge_method") != "S256":
            return error("invalid_request", "PKCE with S256 is required")
        if self.deny:
            return error("access_denied", "the user declined")
        code = secrets.token_urlsafe(32)
        with self._lock:
            self.codes[code] = Grant(
                client_id=self.client_id,
                redirect_uri=redirect_uri,
                scope=scope,
                nonce=q.get("nonce"),
                code_challenge=q["code_challenge"],
                user=ProviderUser(**vars(self.user)),
                expires_at=time.time() + self.code_seconds,
            )
        params = {"code": code}
        if "state" in q:
            params["state"] = q["state"]
        return RedirectResponse(_add_query(redirect_uri, params), status_code=302)

    def _client_credentials(self, authorization: str, form: dict[str, str]) -> tuple[str, str]:
        if authorization.lower().startswith("basic "):
            try:
                raw = base64.b64decode(authorization[6:].strip(), validate=True).decode()
            except (ValueError, UnicodeDecodeError):
                return "", ""
            client_id, _, secret = raw.partition(":")
            return unquote_plus(client_id), unquote_plus(secret)
        return form.get("client_id", ""), form.get("client_secret", "")

    def _token_error(self, status: int, code: str, description: str) -> Response:
        self.token_results.append(code)
        headers = {"www-authenticate": 'Basic realm="oidc"'} if status == 401 else None
        return JSONResponse(
            {"error": code, "error_description": description}, status_code=status, headers=headers
        )

    def _token(self, authorization: str, form: dict[str, str]) -> Response:
        client_id, secret = self._client_credentials(authorization, form)
        if client_id != self.client_id or not hmac.compare_digest(
            secret.encode(), self.client_secret.encode()
        ):
            return self._token_error(401, "invalid_client", "client authentication failed")
        if form.get("grant_type") != "authorization_code":
            return self._token_error(400, "unsupported_grant_type", "authorization_code only")
        with self._lock:
            grant = self.codes.pop(form.get("code", ""), None)  # single use
        if grant is None or grant.expires_at < time.time() or grant.client_id != client_id:
            return self._token_error(400, "invalid_grant", "unknown, used or expired code")
        if form.get("redirect_uri") != grant.redirect_uri:
            return self._token_error(400, "invalid_grant", "redirect_uri does not match")
        verifier = form.get("code_verifier", "")
        if not verifier or not hmac.compare_digest(s256(verifier), grant.code_challenge):
            return self._token_error(400, "invalid_grant", "PKCE verification failed")
        access_token = secrets.token_urlsafe(32)
        now = int(time.time())
        with self._lock:
            self.access_tokens[access_token] = AccessGrant(grant.user, grant.scope, now + 3600)
        claims: dict[str, Any] = {
            "iss": self.issuer,
            "sub": grant.user.sub,
            "aud": client_id,
            "iat": now,
            "exp": now + self.id_token_seconds,
            "auth_time": now,
            "at_hash": _half_hash(access_token),
        }
        if grant.nonce is not None:
            claims["nonce"] = grant.nonce
        if self.profile_in_id_token:
            claims.update(self._profile(grant.user, grant.scope))
        claims.update(self.id_token_overrides)
        key = self.signing_key or self.key
        id_token = jwt.encode({"alg": "RS256", "kid": self.key.kid}, claims, key)
        self.token_results.append("ok")
        return JSONResponse(
            {
                "access_token": access_token,
                "token_type": "Bearer",
                "expires_in": 3600,
                "scope": " ".join(grant.scope),
                "id_token": id_token,
            }
        )

    @staticmethod
    def _profile(user: ProviderUser, scope: list[str]) -> dict[str, Any]:
        claims: dict[str, Any] = {}
        if "email" in scope and user.email is not None:
            claims["email"] = user.email
            claims["email_verified"] = user.email_verified
        if "profile" in scope:
            claims["given_name"] = user.given_name
            claims["name"] = user.name
        return claims

    def _userinfo(self, authorization: str) -> Response:
        token = authorization[7:].strip() if authorization.lower().startswith("bearer ") else ""
        grant = self.access_tokens.get(token)
        if grant is None or grant.expires_at < time.time():
            return JSONResponse(
                {"error": "invalid_token"},
                status_code=401,
                headers={"www-authenticate": 'Bearer error="invalid_token"'},
            )
        return JSONResponse({"sub": grant.user.sub, **self._profile(grant.user, grant.scope)})
