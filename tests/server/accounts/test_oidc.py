"""OpenID Connect sign-in, end to end against a real provider (``oidc_provider.py``) served over
HTTP on 127.0.0.1: the browser's hops to the provider go over real HTTP, our app is called
in-process, and Authlib's own calls from our app (discovery, token, JWKS, userinfo) go over real
HTTP to the provider."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx2
import pytest
import pytest_asyncio
from fastapi import FastAPI
from joserfc.jwk import RSAKey
from sqlalchemy import select, update

from twentynine.server.accounts.models import OIDCIdentity, User
from twentynine.server.app import create_app
from twentynine.server.settings import OIDCProvider, Settings

from ..conftest import (
    Client,
    client_for,
    running_app,
    sign_in,
)
from .oidc_provider import LocalOIDCProvider, ProviderUser

CLIENT_ID = "twentynine-test"
CLIENT_SECRET = "provider-issued-secret"
CALLBACK = "http://127.0.0.1:8000/auth/oidc/local/callback"


@pytest.fixture
def provider() -> Iterator[LocalOIDCProvider]:
    with LocalOIDCProvider(CLIENT_ID, CLIENT_SECRET, [CALLBACK]) as p:
        yield p


@pytest_asyncio.fixture
async def app(
    database_url: str, tmp_path: Path, provider: LocalOIDCProvider
) -> AsyncIterator[FastAPI]:
    """conftest's ``app``, with the local provider configured."""
    local = OIDCProvider(
        name="local",
        client_id=CLIENT_ID,
        client_secret=CLIENT_SECRET,
        server_metadata_url=provider.metadata_url,
        title="Local",
    )
    async with running_app(database_url, tmp_path, oidc_providers=(local,)) as application:
        yield application


async def to_provider(app: FastAPI, provider: LocalOIDCProvider, c: Client) -> str:
    """Start at our login route and let the provider approve; the callback URL it sends the
    browser back to."""
    r = await c.get("/auth/oidc/local/login")
    assert r.status_code == 302, r.text
    location = r.headers["location"]
    assert location.startswith(provider.url + "/authorize?")
    async with httpx2.AsyncClient() as browser:  # a real HTTP hop to the provider
        r = await browser.get(location)
    assert r.status_code == 302, r.text
    callback: str = r.headers["location"]
    assert callback.startswith(CALLBACK + "?")
    return callback


async def oidc_sign_in(
    app: FastAPI, provider: LocalOIDCProvider, c: Client | None = None
) -> tuple[Client, httpx2.Response]:
    c = c or client_for(app)
    callback = await to_provider(app, provider, c)
    return c, await c.get(callback, headers={"accept": "application/json"})


def signed_in(r: httpx2.Response) -> bool:
    return any(h.startswith("tn_session=") for h in r.headers.get_list("set-cookie"))


async def identities(app: FastAPI) -> list[tuple[str, str, int]]:
    async with app.state.sessionmaker() as db:
        rows = await db.scalars(select(OIDCIdentity).order_by(OIDCIdentity.id))
        return [(i.provider, i.subject, i.user_id) for i in rows]


async def user_count(app: FastAPI) -> int:
    async with app.state.sessionmaker() as db:
        return len((await db.scalars(select(User))).all())


async def assert_failed(
    app: FastAPI, c: Client, r: httpx2.Response, status: int, reason: str
) -> None:
    assert r.status_code == status, r.text
    assert reason in r.json()["detail"]
    assert not signed_in(r)
    assert (await c.get("/api/me")).status_code == 401


async def test_providers_list(app: FastAPI, anon: Client) -> None:
    r = await anon.get("/api/auth/providers")
    assert r.status_code == 200 and r.json() == [{"name": "local", "title": "Local"}]


async def test_no_providers_configured(tmp_path: Path) -> None:
    bare = create_app(Settings(data_dir=tmp_path, secret_key="test-secret"))
    async with client_for(bare) as c:
        assert (await c.get("/api/auth/providers")).json() == []
        assert (await c.get("/auth/oidc/local/login")).status_code == 404


async def test_unknown_provider_is_404(anon: Client) -> None:
    assert (await anon.get("/auth/oidc/nope/login")).status_code == 404
    assert (await anon.get("/auth/oidc/nope/callback?code=x&state=y")).status_code == 404


async def test_unreachable_provider(tmp_path: Path) -> None:
    closed = LocalOIDCProvider(CLIENT_ID, CLIENT_SECRET, [CALLBACK]).start()
    dead_url = closed.metadata_url
    closed.stop()
    settings = Settings(
        data_dir=tmp_path,
        secret_key="test-secret",
        oidc_providers=(OIDCProvider("local", CLIENT_ID, CLIENT_SECRET, dead_url, "Local"),),
    )
    async with client_for(create_app(settings)) as c:
        r = await c.get("/auth/oidc/local/login")
    assert r.status_code == 502 and "could not reach Local" in r.text


async def test_full_flow_creates_the_account(app: FastAPI, provider: LocalOIDCProvider) -> None:
    c = client_for(app)
    callback = await to_provider(app, provider, c)
    # what our app asked for: the code flow with PKCE S256, a nonce and the three scopes
    sent = provider.authorize_requests[-1]
    assert sent["response_type"] == "code" and sent["client_id"] == CLIENT_ID
    assert sent["code_challenge_method"] == "S256" and sent["code_challenge"]
    assert sent["nonce"] and sent["state"] and sent["redirect_uri"] == CALLBACK
    assert sent["scope"].split() == ["openid", "email", "profile"]
    assert "tn_oidc" in c.cookies

    r = await c.get(callback)
    assert r.status_code == 303 and r.headers["location"] == "/#/dashboard"
    assert signed_in(r) and provider.token_results == ["ok"]
    me = (await c.get("/api/me")).json()
    assert me["first_name"] == "Olu" and me["email"] == "oidc@example.com"
    assert me["is_admin"] and me["tier"] == "standard"  # the first account on a new server
    assert await identities(app) == [("local", "provider-user-1", me["id"])]
    # the state and the code are single-use: replaying the callback signs nobody in
    replay = client_for(app)
    r = await replay.get(callback, headers={"accept": "application/json"})
    await assert_failed(app, replay, r, 400, "state mismatch")


async def test_second_sign_in_finds_the_same_user(
    app: FastAPI, provider: LocalOIDCProvider
) -> None:
    c1, r = await oidc_sign_in(app, provider)
    first = (await c1.get("/api/me")).json()
    # the address changed at the provider: the (provider, sub) link still finds the account
    provider.user = ProviderUser(email="new-address@example.com", given_name="Changed")
    c2, r = await oidc_sign_in(app, provider)
    assert r.status_code == 303
    second = (await c2.get("/api/me")).json()
    assert second["id"] == first["id"] and second["first_name"] == "Olu"
    assert len(await identities(app)) == 1 and await user_count(app) == 1


async def test_verified_email_links_an_existing_account(
    app: FastAPI, provider: LocalOIDCProvider
) -> None:
    email_client = await sign_in(app, "oidc@example.com", "Asha")  # the email-code flow
    existing = (await email_client.get("/api/me")).json()
    provider.user = ProviderUser(email="OIDC@Example.com")  # normalised before matching
    c, r = await oidc_sign_in(app, provider)
    assert r.status_code == 303 and signed_in(r)
    me = (await c.get("/api/me")).json()
    assert me["id"] == existing["id"] and me["first_name"] == "Asha" and me["is_admin"]
    assert await identities(app) == [("local", "provider-user-1", existing["id"])]
    assert await user_count(app) == 1


async def test_unverified_email_does_not_link(app: FastAPI, provider: LocalOIDCProvider) -> None:
    email_client = await sign_in(app, "oidc@example.com", "Asha")
    existing = (await email_client.get("/api/me")).json()
    provider.user = ProviderUser(email_verified=False)
    c, r = await oidc_sign_in(app, provider)
    assert r.status_code == 303
    me = (await c.get("/api/me")).json()
    assert me["id"] != existing["id"] and me["email"] is None and me["first_name"] == "Olu"
    assert not me["is_admin"] and me["tier"] == "basic"


async def test_claims_from_userinfo_when_the_id_token_is_minimal(
    app: FastAPI, provider: LocalOIDCProvider
) -> None:
    provider.profile_in_id_token = False
    provider.user = ProviderUser(sub="u-2", email="min@example.com", given_name="Mina")
    c, r = await oidc_sign_in(app, provider)
    assert r.status_code == 303
    me = (await c.get("/api/me")).json()
    assert me["email"] == "min@example.com" and me["first_name"] == "Mina"


async def test_tampered_state_is_refused(app: FastAPI, provider: LocalOIDCProvider) -> None:
    c = client_for(app)
    callback = await to_provider(app, provider, c)
    parts = urlsplit(callback)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    query["state"] = query["state"][:-2] + ("xx" if not query["state"].endswith("xx") else "yy")
    r = await c.get(f"{CALLBACK}?{urlencode(query)}")
    assert r.status_code == 400 and "state mismatch" in r.text  # the HTML page
    assert not signed_in(r) and (await c.get("/api/me")).status_code == 401
    assert provider.token_results == []  # the code was never even sent to the provider
    assert await identities(app) == [] and await user_count(app) == 0


async def test_callback_in_another_browser_is_refused(
    app: FastAPI, provider: LocalOIDCProvider
) -> None:
    callback = await to_provider(app, provider, client_for(app))
    other = client_for(app)  # no tn_oidc cookie: a forged or stolen callback link
    r = await other.get(callback, headers={"accept": "application/json"})
    await assert_failed(app, other, r, 400, "state mismatch")


async def test_wrong_client_secret_is_refused(app: FastAPI, provider: LocalOIDCProvider) -> None:
    provider.client_secret = "the-provider-expects-another"
    c, r = await oidc_sign_in(app, provider)
    await assert_failed(app, c, r, 400, "invalid_client")
    assert provider.token_results == ["invalid_client"]
    assert await identities(app) == [] and await user_count(app) == 0


async def test_provider_error_is_shown(app: FastAPI, provider: LocalOIDCProvider) -> None:
    provider.deny = True
    c, r = await oidc_sign_in(app, provider)
    await assert_failed(app, c, r, 400, "access_denied")
    assert provider.token_results == []


@pytest.mark.parametrize(
    ("overrides", "other_key"),
    [
        pytest.param({}, True, id="signature-by-unknown-key"),
        pytest.param({"aud": "someone-else", "azp": CLIENT_ID}, False, id="audience"),
        pytest.param({"iss": "http://127.0.0.1:1"}, False, id="issuer"),
        pytest.param({"nonce": "replayed"}, False, id="nonce"),
        pytest.param(
            {"iat": int(time.time()) - 7200, "exp": int(time.time()) - 3600},
            False,
            id="expired",
        ),
    ],
)
async def test_bad_id_token_is_refused(
    app: FastAPI, provider: LocalOIDCProvider, overrides: dict[str, object], other_key: bool
) -> None:
    provider.id_token_overrides = overrides
    if other_key:
        provider.signing_key = RSAKey.generate_key(2048)
    c, r = await oidc_sign_in(app, provider)
    await assert_failed(app, c, r, 400, "ID token from Local is not valid")
    assert provider.token_results == ["ok"]  # the provider issued it; our app refused it
    assert await identities(app) == [] and await user_count(app) == 0


async def test_disabled_account_is_refused(app: FastAPI, provider: LocalOIDCProvider) -> None:
    c, r = await oidc_sign_in(app, provider)
    user_id = (await c.get("/api/me")).json()["id"]
    async with app.state.sessionmaker() as db:
        await db.execute(update(User).where(User.id == user_id).values(disabled=True))
        await db.commit()
    c2, r = await oidc_sign_in(app, provider)
    await assert_failed(app, c2, r, 403, "disabled")


async def test_disabled_email_account_is_not_linked(
    app: FastAPI, provider: LocalOIDCProvider
) -> None:
    email_client = await sign_in(app, "oidc@example.com", "Asha")
    user_id = (await email_client.get("/api/me")).json()["id"]
    async with app.state.sessionmaker() as db:
        await db.execute(update(User).where(User.id == user_id).values(disabled=True))
        await db.commit()
    c, r = await oidc_sign_in(app, provider)
    await assert_failed(app, c, r, 403, "disabled")
    assert await identities(app) == [] and await user_count(app) == 1
