package dev.pulseledger.architecture;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.sql.Connection;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Boundaries between the main code's packages that the build checks, so that they stay where they are drawn. */
class ArchitectureTest {
    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages("dev.pulseledger");
    }

    @Test
    void noPackageDependsOnItselfThroughOthers() {
        // Each package a slice: a cycle anywhere, between top-level packages or their sub-packages, fails the build.
        slices().matching("dev.pulseledger.(**)").should().beFreeOfCycles().check(main);
    }

    @Test
    void theHttpPlumbingDoesNotDependOnRateLimiting() {
        // Access counts failed authentications through http's FailedAuthCount, which ratelimit implements.
        noClasses()
                .that()
                .resideInAPackage("dev.pulseledger.http..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.pulseledger.ratelimit..")
                .check(main);
    }

    @Test
    void keysDoNotDependOnAccounts() {
        // Accounts record their changes in the keys' access change log; issuing a key for an account lives in accounts.
        noClasses()
                .that()
                .resideInAPackage("dev.pulseledger.keys..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.pulseledger.accounts..")
                .check(main);
    }

    @Test
    void onlyTheApplicationAssemblesTheModules() {
        noClasses()
                .that()
                .resideOutsideOfPackages("dev.pulseledger", "dev.pulseledger.app..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.pulseledger.app..")
                .check(main);
    }

    @Test
    void theHttpEdgeDependsOnHelidonAndTheJdkOnly() {
        // It covers Helidon's framing defects (http/edge/UPSTREAM.md) and must be deletable whole when they are fixed.
        noClasses()
                .that()
                .resideInAPackage("dev.pulseledger.http.edge..")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages("dev.pulseledger.http.edge..", "java..", "io.helidon..", "org.jspecify..")
                .check(main);
    }

    @Test
    void onlyTheTransactionsClassBeginsCommitsOrRollsBack() {
        // store/Transactions counts every write transaction that ends, which the SQLite balance cache relies on.
        noClasses()
                .that()
                .doNotHaveFullyQualifiedName("dev.pulseledger.store.Transactions")
                .should()
                .callMethod(Connection.class, "commit")
                .orShould()
                .callMethod(Connection.class, "rollback")
                .orShould()
                .callMethod(Connection.class, "setAutoCommit", boolean.class)
                .check(main);
    }

    @Test
    void jdbiNeitherBorrowsConnectionsNorEndsTransactions() {
        // store/Sql hands Jdbi the connection a unit of work holds; Transactions alone begins and ends it.
        noClasses()
                .that()
                .doNotHaveFullyQualifiedName("dev.pulseledger.store.Sql")
                .should()
                .callMethodWhere(target(owner(assignableTo(Jdbi.class))))
                .orShould()
                .callMethodWhere(target(owner(assignableTo(Handle.class)))
                        .and(target(nameMatching("begin|commit|rollback|inTransaction|useTransaction|savepoint"
                                + "|rollbackToSavepoint|release|setReadOnly"))))
                .check(main);
    }

    @Test
    void onlyTheStoreBorrowsConnections() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.pulseledger.store")
                .should()
                .callMethodWhere(target(name("getConnection")))
                .check(main);
    }
}
