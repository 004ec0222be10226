"""Web Push notifications: VAPID keys, the seats' push subscriptions, and the sender."""
