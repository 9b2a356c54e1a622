"""Android system services of the simulated phone: file system, settings, packages, activities, shell."""
