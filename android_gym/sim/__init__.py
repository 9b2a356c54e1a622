"""The simulated phone: system services, view toolkit and apps behind the Device protocol."""
