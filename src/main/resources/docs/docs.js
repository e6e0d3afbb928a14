// Starts Swagger UI on this node's own OpenAPI document. A file of its own, not an inline
// script, so that the page's Content-Security-Policy can forbid inline scripts.
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    // The public validator would send the document to a third party; this node stays offline.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
});
