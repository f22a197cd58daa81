"""Every use of a private name of pulumi, pulumi_policy or grpc goes through this package.

The project takes shortcuts through a few internals of the Pulumi libraries (faster, or less memory). Each lives in
one module here with a fallback on public API that keeps behaviour (slower is fine):

* `policy_servicer`: pulumi_policy's private Analyzer servicer class, its violation reporter and its per-policy
  levels and config. Fallback: the pack serves pulumi_policy untouched, every rule its own policy
  (`policies.rule_runner`); `--pack-in-process` runs the pack as its own process.
* `policy_proxies`: the container inside pulumi_policy's unknown-checking proxies (their `"__target"` key).
  Fallback: the proxy read entry by entry, unknown values put back as their sentinels.
* `pulumi_runtime`: the SDK's pending registrations (`settings._get_rpc_manager`, `SETTINGS`), its root resource
  context variable, `_sync_await` and the `_LazyModule` class of `lazy_import`. Fallbacks: the SDK's own wait for
  registrations, a fresh context's default root, an event loop of its own, packages imported as the SDK does.

A shortcut is taken only when the installed release is in the range the project's CI tests (`versions.TESTED`,
the versions of `constraints.txt`) and its internals look as expected; `GKECAP_COMPAT=public` takes every fallback
(to compare, or when a shortcut misbehaves). Importable by the policy pack: it imports no other part of gkecap.
"""
