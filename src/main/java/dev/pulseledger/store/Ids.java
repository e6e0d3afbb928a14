package dev.pulseledger.store;

import com.github.f4b6a3.ulid.UlidCreator;

/** Opaque, time-ordered IDs with a type prefix (CONTRACT §1). */
public final class Ids {
    private Ids() {}

    public static String account() {
        return "acct_" + ulid();
    }

    public static String key() {
        return "key_" + ulid();
    }

    public static String spending() {
        return "sp_" + ulid();
    }

    public static String reservation() {
        return "rsv_" + ulid();
    }

    public static String grant() {
        return "gr_" + ulid();
    }

    public static String event() {
        return "evt_" + ulid();
    }

    public static String webhook() {
        return "wh_" + ulid();
    }

    public static String delivery() {
        return "dlv_" + ulid();
    }

    public static String incident() {
        return "inc_" + ulid();
    }

    public static String incidentUpdate() {
        return "upd_" + ulid();
    }

    public static String maintenance() {
        return "mnt_" + ulid();
    }

    public static String statusSubscriber() {
        return "ssub_" + ulid();
    }

    public static String statusNotice() {
        return "snot_" + ulid();
    }

    public static String statusMail() {
        return "smail_" + ulid();
    }

    /** An operator (issue 43). */
    public static String operator() {
        return "op_" + ulid();
    }

    /** An operator's admin key (issue 43). */
    public static String adminKey() {
        return "akey_" + ulid();
    }

    private static String ulid() {
        return UlidCreator.getMonotonicUlid().toLowerCase();
    }
}
