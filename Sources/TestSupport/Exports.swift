// Tests use the demo's replay model and seeded generator as fixtures too.
@_exported import DemoSupport
