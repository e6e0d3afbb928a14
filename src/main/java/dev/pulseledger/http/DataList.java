package dev.pulseledger.http;

import java.util.List;

/** A whole list as a response body: {@code {"data": [...]}}. */
public record DataList<T>(List<T> data) {}
