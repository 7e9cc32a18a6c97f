"""Optional sign-in with OpenID Connect providers, configured by ``Settings.oidc_providers``.

Authlib's Starlette client runs the authorization-code flow: discovery, ``state`` (kept in the
signed ``tn_oidc`` cookie of Starlette's SessionMiddleware), PKCE (S256) and ``nonce``; then it
exchanges the code and validates the ID token (signature against the provider's JWKS, algorithm,
issuer, audience, nonce, expiry). This module turns the verified identity into an account: the
one linked to (provider, sub), else the account with the same *verified* email (linking it), else
a new account; then it opens a session like the email sign-in does."""

from __future__ import annotations

import html
import logging
from typing import Any
from urllib.parse import quote

import httpx2
from authlib.integrations.base_client import (  # type: ignore[import-untyped]
    MismatchingStateError,
    OAuthError,
)
from authlib.integrations.starlette_client import OAuth  # type: ignore[import-untyped]
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from joserfc.errors import JoseError
from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..deps import SessionDep, SettingsDep
from ..friends.invitations import tell_redeemed
from ..settings import OIDCProvider, Settings
from . import listing, service
from .models import OIDCIdentity, User
from .router import set_session_cookies

log = logging.getLogger("twentynine.server.oidc")

router = APIRouter()

SCOPE = "openid email profile"


class ProviderOut(BaseModel):
    name: str
    title: str


class OIDCFailure(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def _provider(settings: Settings, name: str) -> OIDCProvider:
    for provider in settings.oidc_providers:
        if provider.name == name:
            return provider
    raise HTTPException(status_code=404, detail="no such sign-in provider")


def _title(provider: OIDCProvider) -> str:
    return provider.title or provider.name


def _client(request: Request, provider: OIDCProvider) -> Any:
    """The Authlib client for ``provider``; one registry per app, made on first use (it caches
    the discovery document and the JWKS)."""
    oauth: Any = getattr(request.app.state, "oidc_oauth", None)
    if oauth is None:
        oauth = OAuth()
        for p in request.app.state.settings.oidc_providers:
            oauth.register(
                name=p.name,
                client_id=p.client_id,
                client_secret=p.client_secret,
                server_metadata_url=p.server_metadata_url,
                client_kwargs={"scope": SCOPE, "code_challenge_method": "S256"},
            )
        request.app.state.oidc_oauth = oauth
    return oauth.create_client(provider.name)


def _redirect_uri(settings: Settings, provider: OIDCProvider) -> str:
    """The callback URL registered at the provider: from the configured public URL, never from
    the request's Host header."""
    return f"{settings.public_url}/auth/oidc/{quote(provider.name, safe='')}/callback"


def _failure(request: Request, status: int, reason: str) -> Response:
    log.warning("OpenID Connect sign-in failed (%s): %s", status, reason)
    accept = request.headers.get("accept", "")
    if "application/json" in accept and "text/html" not in accept:
        return JSONResponse({"detail": reason}, status_code=status)
    page = (
        "<!doctype html><meta charset='utf-8'><title>Sign-in failed</title>"
        f"<h1>Sign-in failed</h1><p>{html.escape(reason)}</p><p><a href='/'>Back</a></p>"
    )
    return HTMLResponse(page, status_code=status)


def _oauth_reason(e: Any) -> str:
    parts = [str(getattr(e, "error", "") or ""), str(getattr(e, "description", "") or "")]
    return ": ".join(p for p in parts if p) or type(e).__name__


@router.get("/api/auth/providers")
async def providers(settings: SettingsDep) -> list[ProviderOut]:
    """The configured OpenID Connect providers (empty when none)."""
    return [ProviderOut(name=p.name, title=_title(p)) for p in settings.oidc_providers]


@router.get("/auth/oidc/{name}/login", response_model=None)
async def oidc_login(name: str, request: Request, settings: SettingsDep) -> Response:
    """Redirect to the provider's authorization endpoint (state, nonce and PKCE verifier are
    kept in the signed session cookie)."""
    provider = _provider(settings, name)
    client = _client(request, provider)
    try:
        response: Response = await client.authorize_redirect(
            request, _redirect_uri(settings, provider)
        )
    except (httpx2.HTTPError, ValueError, KeyError, RuntimeError) as e:
        return _failure(
            request, 502, f"could not reach {_title(provider)} to sign in ({type(e).__name__})"
        )
    return response


@router.get("/auth/oidc/{name}/callback", response_model=None)
async def oidc_callback(
    name: str, request: Request, db: SessionDep, settings: SettingsDep
) -> Response:
    """The provider sends the browser back here with ``code`` and ``state`` (or ``error``)."""
    provider = _provider(settings, name)
    try:
        claims = await _verified_claims(request, provider)
        user = await _account_for(db, settings, provider, claims)
    except OIDCFailure as e:
        return _failure(request, e.status, e.reason)
    response = RedirectResponse("/#/dashboard", status_code=303)
    set_session_cookies(response, settings, await service.open_session(db, settings, user))
    await tell_redeemed(request.app.state.live, db, user)
    await listing.tell_made(request.app.state.live, db)
    log.info("user %s signed in with %s", user.id, provider.name)
    return response


async def _verified_claims(request: Request, provider: OIDCProvider) -> dict[str, Any]:
    """Exchange the code and validate the ID token; its claims, completed from the UserInfo
    endpoint when the ID token leaves out the email or the name."""
    title = _title(provider)
    client = _client(request, provider)
    try:
        metadata: dict[str, Any] = await client.load_server_metadata()
        issuer = metadata.get("issuer")
        if not isinstance(issuer, str) or not issuer:
            raise OIDCFailure(502, f"{title}'s discovery document names no issuer")
        # Authlib checks the issuer only when no options are given, and the audience only
        # through "azp"; name both explicitly.
        options = {
            "iss": {"essential": True, "value": issuer},
            "aud": {"essential": True, "value": provider.client_id},
        }
        token: dict[str, Any] = await client.authorize_access_token(request, claims_options=options)
    except MismatchingStateError:
        raise OIDCFailure(
            400,
            "the sign-in request is unknown or expired, or was started in another browser "
            "(state mismatch); please try again",
        ) from None
    except OAuthError as e:
        raise OIDCFailure(400, f"{title} refused the sign-in: {_oauth_reason(e)}") from None
    except JoseError as e:
        raise OIDCFailure(
            400, f"the ID token from {title} is not valid: {_oauth_reason(e)}"
        ) from None
    except (httpx2.HTTPError, ValueError, KeyError) as e:
        raise OIDCFailure(
            502, f"could not complete the sign-in with {title} ({type(e).__name__})"
        ) from None
    id_claims = token.get("userinfo")
    if not id_claims:
        raise OIDCFailure(400, f"{title} did not return an ID token")
    claims = dict(id_claims)
    wants_more = not claims.get("email") or "email_verified" not in claims
    if (wants_more or not _name(claims)) and metadata.get("userinfo_endpoint"):
        try:
            info = dict(await client.userinfo(token=token))
        except (OAuthError, httpx2.HTTPError, ValueError) as e:
            log.warning("%s userinfo failed: %s", provider.name, type(e).__name__)
            info = {}
        claims = _merge_userinfo(claims, info)
    return claims


def _merge_userinfo(claims: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
    """Fill gaps in the ID token's claims from UserInfo, which must be about the same subject;
    an email address and its ``email_verified`` are taken together."""
    if info.get("sub") != claims.get("sub"):
        return claims
    merged = dict(claims)
    if not merged.get("email") and info.get("email"):
        merged["email"] = info["email"]
        merged["email_verified"] = info.get("email_verified", False)
    elif "email_verified" not in merged and info.get("email") == merged.get("email"):
        merged["email_verified"] = info.get("email_verified", False)
    for key in ("given_name", "name"):
        if not merged.get(key) and info.get(key):
            merged[key] = info[key]
    return merged


def _verified_email(claims: dict[str, Any]) -> str | None:
    email = claims.get("email")
    verified = claims.get("email_verified")
    # some providers send the boolean as a string
    if isinstance(verified, str):
        verified = verified.strip().lower() == "true"
    if isinstance(email, str) and "@" in email and verified is True:
        return service.normalise_email(email)
    return None


def _name(claims: dict[str, Any]) -> str:
    given = claims.get("given_name")
    if isinstance(given, str) and given.strip():
        return given.strip()
    full = claims.get("name")
    if isinstance(full, str) and full.strip():
        return full.strip().split()[0]
    return ""


async def _account_for(
    db: AsyncSession, settings: Settings, provider: OIDCProvider, claims: dict[str, Any]
) -> User:
    for attempt in (1, 2):
        try:
            return await _find_or_create(db, settings, provider, claims)
        except IntegrityError:
            # a concurrent sign-in linked or created the same identity or email; look again
            await db.rollback()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def _find_or_create(
    db: AsyncSession, settings: Settings, provider: OIDCProvider, claims: dict[str, Any]
) -> User:
    subject = claims.get("sub")
    if not isinstance(subject, str) or not subject or len(subject) > 255:
        raise OIDCFailure(400, f"{_title(provider)} sent no usable subject (sub)")
    identity = await db.scalar(
        select(OIDCIdentity).where(
            OIDCIdentity.provider == provider.name, OIDCIdentity.subject == subject
        )
    )
    user = await db.get(User, identity.user_id) if identity is not None else None
    if user is None:
        email = _verified_email(claims)
        if email is not None:
            user = await db.scalar(select(User).where(User.email == email))
        if user is not None and user.disabled:
            raise OIDCFailure(403, "this account is disabled")
        if user is None:
            user = await service.create_user(db, settings, email, _name(claims) or "Player")
        db.add(OIDCIdentity(provider=provider.name, subject=subject, user_id=user.id))
        await db.commit()
        log.info("linked %s subject to user %s", provider.name, user.id)
    if user.disabled:
        raise OIDCFailure(403, "this account is disabled")
    return user
