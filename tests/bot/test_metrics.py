"""The metrics' labels: a REST route carries no id or token, and the shard set names the process."""

from __future__ import annotations

from bot.metrics import Metrics, route_of, sample


def test_routes_hide_ids_and_tokens() -> None:
    """A route label carries no id or token (few values, nothing secret)."""
    assert route_of("/api/v10/channels/123/messages/456") == "/channels/{id}/messages/{id}"
    assert route_of("/api/v10/interactions/123/aW50ZXJhY3Rpb24.dG9rZW4/callback") == (
        "/interactions/{id}/{token}/callback")
    assert route_of("/api/v10/webhooks/99/aW50ZXJhY3Rpb24/messages/@original") == (
        "/webhooks/{id}/{token}/messages/@original")
    assert route_of("/channels/1/messages/2/reactions/%F0%9F%94%AA/@me") == (
        "/channels/{id}/messages/{id}/reactions/{emoji}/@me")
    assert route_of("/users/@me/channels") == "/users/@me/channels"


def test_every_series_is_labelled_with_the_shard_set() -> None:
    """A process holding shards 2 and 0 labels its series ``shards="0,2"``; the gateway's websocket is no REST
    call; a 429 is a retried answer; a 404 to an interaction callback is a late one."""
    metrics = Metrics([2, 0], 4)
    assert metrics.shards == "0,2" and Metrics().shards == "all"
    metrics.rest_answered("GET", "/gateway", 101)
    metrics.rest_answered("POST", "/api/v10/channels/1/messages", 429)
    metrics.rest_answered("POST", "/api/v10/interactions/5/tok/callback", 404)
    assert sample(metrics, "coroner_rest_requests_total", method="GET", route="/gateway", status="101") == 0
    assert sample(metrics, "coroner_rest_requests_total", method="POST", route="/channels/{id}/messages",
                  status="429") == 1
    assert sample(metrics, "coroner_rest_retries_total", route="/channels/{id}/messages", status="429") == 1
    assert sample(metrics, "coroner_interaction_callbacks_late_total") == 1
    assert b'shards="0,2"' in metrics.exposition()
