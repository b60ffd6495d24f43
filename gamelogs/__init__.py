"""Online games (Tenhou, Mahjong Soul) brought in from their game logs (対局ログ)."""
