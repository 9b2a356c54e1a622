"""Shell commands of the simulated phone, one module per command family (each exports ``COMMANDS``)."""
