"""The classic (non-learning) agents: line shapes and pattern scores, threat search
(VCF), the one-ply heuristic and alpha-beta search."""
