package dev.pulseledger.operators;

import dev.pulseledger.keys.Role;
import java.util.Optional;

/** A PATCH of an operator: each present field is set, absent ones are left as they are. */
public record OperatorChange(
        Optional<String> name, Optional<String> email, Optional<Role> role, Optional<Boolean> disabled) {}
