"""Pieces shared by every part of Taikai that need neither Django nor the database."""
