package dev.sonde;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.domain.properties.HasOwner;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.sonde.tools.FamilyVerticle;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.List;
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

  /**
   * The tool families, each one package holding its tools and its engine: the packages of the
   * family verticles, so a new family is held to the rules without being listed here.
   */
  private static final List<String> FAMILY_NAMES =
      MAIN.get(FamilyVerticle.class).getSubclasses().stream()
          .map(c -> c.getPackageName().substring("dev.sonde.".length()))
          .distinct()
          .sorted()
          .toList();

  private static final String[] FAMILIES =
      FAMILY_NAMES.stream().map(f -> "dev.sonde." + f + "..").toArray(String[]::new);

  @Test
  void theFamiliesAreFoundFromTheirVerticles() {
    // an empty list would let every family rule below pass without checking anything
    assertTrue(FAMILY_NAMES.containsAll(List.of("timeseries", "forecast", "dashboard", "chatbi")));
    assertEquals(
        MAIN.get(FamilyVerticle.class).getSubclasses().size(),
        FAMILY_NAMES.size(),
        FAMILY_NAMES.toString());
  }

  @Test
  void familiesDoNotDependOnEachOther() {
    slices()
        .matching("dev.sonde.(*)..")
        .that(
            DescribedPredicate.describe(
                "are tool families", slice -> FAMILY_NAMES.contains(slice.getNamePart(1))))
        .should()
        .notDependOnEachOther()
        .because("a family that needs another's work asks it over the event bus")
        .check(MAIN);
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
        .resideInAnyPackage(FAMILIES)
        .orShould()
        .dependOnClassesThat()
        .resideInAPackage("dev.sonde.web..")
        .check(MAIN);
  }

  @Test
  void theWebLayerKnowsNoFamilyAndAsksThemOverTheBus() {
    noClasses()
        .that()
        .resideInAPackage("dev.sonde.web..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(FAMILIES)
        .check(MAIN);
  }

  @Test
  void sharedCoreDependsOnNothingAboveIt() {
    noClasses()
        .that()
        .resideInAPackage("dev.sonde.core..")
        .should()
        .dependOnClassesThat(
            JavaClass.Predicates.resideInAPackage("dev.sonde..")
                .and(
                    DescribedPredicate.not(
                        JavaClass.Predicates.resideInAPackage("dev.sonde.core.."))))
        .check(MAIN);
  }

  @Test
  void whoMayCallWhatIsDecidedBelowTheProtocolAndTheFamilies() {
    noClasses()
        .that()
        .resideInAPackage("dev.sonde.auth..")
        .should()
        .dependOnClassesThat(
            JavaClass.Predicates.resideInAPackage("dev.sonde..")
                .and(
                    DescribedPredicate.not(
                        JavaClass.Predicates.resideInAnyPackage(
                            "dev.sonde.auth..", "dev.sonde.core..", "dev.sonde.config.."))))
        .check(MAIN);
  }

  @Test
  void noWorkRunsOnVertxsDefaultWorkerPool() {
    noClasses()
        .should()
        .callMethodWhere(
            JavaCall.Predicates.target(HasName.Predicates.name("executeBlocking"))
                .and(
                    JavaCall.Predicates.target(
                        HasOwner.Predicates.With.owner(
                            JavaClass.Predicates.assignableTo(Vertx.class)
                                .or(JavaClass.Predicates.assignableTo(Context.class))))))
        .because("work runs on the named pool of the family or layer that owns it")
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
  void theGuardStandsBelowTheDatabaseLayer() {
    noClasses()
        .that()
        .resideInAPackage("dev.sonde.db.guard..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.sonde.db")
        .check(MAIN);
  }

  @Test
  void packagesHaveNoCycles() {
    slices().matching("dev.sonde.(*)..").should().beFreeOfCycles().check(MAIN);
  }
}
