"""The trusted pytest side: the runner, the harness plugin, the hidden suites, scoring, batches and shards."""
