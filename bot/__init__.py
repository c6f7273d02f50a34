"""Coroner's Discord adapter: settings, store, table service, cogs and catalogues."""
