// Starts Swagger UI on /docs (a file, not an inline script: the page's Content-Security-Policy
// allows scripts from this site only).
window.SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui" });
