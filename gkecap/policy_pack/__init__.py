"""The policy pack as the Pulumi engine runs it: a child process spoken to over the Analyzer gRPC protocol."""
