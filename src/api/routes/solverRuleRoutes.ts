import { Router } from 'express';
import { SolverRuleInputSchema, type SolverRule, type SolverRuleInput } from '../../domain/fill/solverRules';
import { SolverRuleNotFoundError } from '../../errors/adminErrors';
import { parseWithSchema } from '../../errors/parseWithSchema';

export interface SolverRuleRouteDeps {
  solver: { addRule(input: SolverRuleInput): SolverRule; listRules(): SolverRule[]; removeRule(id: string): boolean; clearRules(): void };
}

/**
 * Admin (not part of the SPEC surface): what the solver does, as rules. `POST /admin/solver/rules
 * { match?, action, probability?, times? }` adds one (the newest matching rule wins),
 * `GET` lists them, `DELETE /admin/solver/rules[/:id]` removes one or all. docs/requests.md ("Solver rules").
 */
export function solverRuleRoutes(deps: SolverRuleRouteDeps): Router {
  const router = Router();
  router.post('/admin/solver/rules', (req, res) => {
    const rule = deps.solver.addRule(parseWithSchema(SolverRuleInputSchema, req.body));
    res.status(201).json({ rule, rules: deps.solver.listRules() });
  });
  router.get('/admin/solver/rules', (_req, res) => {
    res.json({ rules: deps.solver.listRules() });
  });
  router.delete('/admin/solver/rules/:id', (req, res) => {
    if (!deps.solver.removeRule(req.params.id)) throw new SolverRuleNotFoundError(req.params.id);
    res.json({ rules: deps.solver.listRules() });
  });
  router.delete('/admin/solver/rules', (_req, res) => {
    deps.solver.clearRules();
    res.json({ rules: deps.solver.listRules() });
  });
  return router;
}
