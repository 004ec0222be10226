"""The HTTP shell around the features: error bodies, request rates, security headers, body and
head limits, compression, health, metrics and the offline API docs (installed by ``app.main``)."""
