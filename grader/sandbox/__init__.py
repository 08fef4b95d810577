"""The sandbox: isolation levels and limits, the worker that runs student code, the channel to it, deadlines."""
