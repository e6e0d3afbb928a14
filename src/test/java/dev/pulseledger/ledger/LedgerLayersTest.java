package dev.pulseledger.ledger;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The ledger's walls (docs/ARCHITECTURE.md): the core is pure rules, knowing no SQL, HTTP, JSON or clock,
 * and no other ledger layer; the store layer knows nothing of the web layer.
 */
class LedgerLayersTest {
    private static final String CORE = "dev.pulseledger.ledger.core..";
    private static JavaClasses ledger;

    @BeforeAll
    static void importLedger() {
        ledger = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.pulseledger.ledger");
    }

    @Test
    void theCoreKnowsNoSqlHttpJsonOrClock() {
        ArchRule rule = noClasses()
                .that()
                .resideInAPackage(CORE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.sql..", "javax.sql..", "io.helidon..", "com.fasterxml.jackson..")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.time.Clock")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.time.InstantSource")
                .because("the core decides from state, commands and a given time only");
        rule.check(ledger);
    }

    @Test
    void theCoreDependsOnNoOtherLedgerLayer() {
        noClasses()
                .that()
                .resideInAPackage(CORE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.pulseledger.ledger.db..",
                        "dev.pulseledger.ledger.write..",
                        "dev.pulseledger.ledger.read..",
                        "dev.pulseledger.ledger.web..")
                .because("every other layer builds on the core, never the other way")
                .check(ledger);
    }

    @Test
    void theStoreKnowsNothingOfTheWeb() {
        noClasses()
                .that()
                .resideInAPackage("dev.pulseledger.ledger.db..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.pulseledger.ledger.web..", "io.helidon.webserver..")
                .because("stores translate the core's changes to SQL; HTTP is the web layer's")
                .check(ledger);
    }
}
