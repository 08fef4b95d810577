"""The sandbox: isolation levels and limits, the worker that runs student code, and the channel to it."""
