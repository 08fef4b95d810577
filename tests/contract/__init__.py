"""The public contract: small readable examples of every rule, run against the implementation --impl names."""
