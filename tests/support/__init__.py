"""Shared test helpers (rigs, fixtures) imported as tests.support.*"""
