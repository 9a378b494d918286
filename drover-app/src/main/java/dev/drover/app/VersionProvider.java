package dev.drover.app;

import picocli.CommandLine.IVersionProvider;

/** Prints the version written into the jar's manifest by the build. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = Main.class.getPackage().getImplementationVersion();
    return new String[] {
      "drover " + (version == null ? "(development build)" : version),
      "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
    };
  }
}
