"""Fits each job read from stdin with Extra-P's basic single-parameter
modeler and prints the models chosen, for TestModelsAgreeWithExtraP.

Input: a JSON list of {"name", "xs", "ys", "negative"}; the Extra-P package
must be on PYTHONPATH. Output: a JSON list of {"name", "c0", "terms":
[[poly exponent, log exponent, coefficient]], "text", "ar2", "smape"}.
"""
import json, sys, warnings
warnings.simplefilter('ignore')
from extrap.entities.measurement import Measurement
from extrap.entities.coordinate import Coordinate
from extrap.entities.callpath import Callpath
from extrap.entities.metric import Metric
from extrap.entities.parameter import Parameter
from extrap.modelers.single_parameter.basic import SingleParameterModeler
out = []
for job in json.load(sys.stdin):
    m = SingleParameterModeler()
    if job.get("negative"):
        m.allow_negative_exponents = True
    ms = [Measurement(Coordinate(x), Callpath(job["name"]), Metric("time"), [y]) for x, y in zip(job["xs"], job["ys"])]
    model = m.create_model(ms)
    f = model.hypothesis.function
    terms = []
    for ct in getattr(f, "compound_terms", []):
        poly, log = 0.0, 0.0
        for st in ct.simple_terms:
            if st.term_type == "polynomial": poly = float(st.exponent)
            else: log = float(st.exponent)
        terms.append([poly, log, ct.coefficient])
    out.append({"name": job["name"], "c0": f.constant_coefficient, "terms": terms,
                "text": f.to_string(Parameter("x")), "ar2": model.hypothesis.AR2, "smape": model.hypothesis.SMAPE})
json.dump(out, sys.stdout)
