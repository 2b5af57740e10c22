package dev.sonde;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The rules of the architecture page, checked on the compiled main classes. Each {@code check}
 * fails the test with an assertion error that lists every violating class and call.
 */
class ArchitectureTest {
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.sonde");

  @Test
  void familiesDoNotDependOnEachOther() {
    slices().matching("dev.sonde.tools.(*)..").should().notDependOnEachOther().check(MAIN);
  }

  @Test
  void protocolAndTransportsKnowNoJdbc() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.sonde.mcp..", "dev.sonde.web..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("java.sql..")
        .check(MAIN);
  }

  @Test
  void theProtocolEngineKnowsNoFamilyAndNoTransport() {
    noClasses()
        .that()
        .resideInAPackage("dev.sonde.mcp..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.sonde.tools.*..", "dev.sonde.web..")
        .check(MAIN);
  }

  @Test
  void onlyTheDatabaseLayerOpensConnections() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.sonde.db..")
        .should()
        .callMethod(java.sql.DriverManager.class, "getConnection", String.class)
        .orShould()
        .callMethod(javax.sql.DataSource.class, "getConnection")
        .check(MAIN);
  }

  @Test
  void packagesHaveNoCycles() {
    slices().matching("dev.sonde.(*)..").should().beFreeOfCycles().check(MAIN);
  }
}
