"""Modal screens of the sessiontui app: help, record forms, path prompts."""
