"""Stated (from the release) against realised excess MSE of `dpgauss regress` (default ssp) on the training rows, over
OLS: python3 bench/realdata/regress_expected.py TABLES EPSILONS (e.g. breast_cancer,diabetes,digits,wine,iris,boston 1,0.5);
runs ./dpgauss from the repository root (DPGAUSS=path overrides); 10 seeds, 70/30 split, box = each column min/max."""
import numpy as np, subprocess, json, sys, os, tempfile
TMP = tempfile.mkdtemp()
from sklearn import datasets
from sklearn.linear_model import LinearRegression as OLS
def load(name):
    if name=="boston":
        t=np.loadtxt(os.path.join(os.path.dirname(datasets.__file__),"data","boston_house_prices.csv"),delimiter=",",skiprows=2); return t[:,:-1],t[:,-1]
    if name=="diabetes": b=datasets.load_diabetes(scaled=False); return b.data,b.target
    if name=="breast_cancer": b=datasets.load_breast_cancer(); return b.data,b.target.astype(float)
    if name=="iris": x=datasets.load_iris().data; return np.delete(x,3,1),x[:,3]
    if name=="wine": x=datasets.load_wine().data; return np.delete(x,0,1),x[:,0]
    if name=="digits": x=datasets.load_digits().data.astype(float); return np.delete(x,36,1),x[:,36]
for eps in sys.argv[2].split(","):
 for name in sys.argv[1].split(","):
  X,y=load(name); u=(X-X.min(0))/np.where(X.max(0)>X.min(0),X.max(0)-X.min(0),1); n=len(u)
  ratios=[]
  for seed in range(1,11):
    perm=np.random.default_rng(seed).permutation(n); tr=perm[:int(round(0.7*n))]
    np.savetxt(os.path.join(TMP, "te.csv"),np.hstack([u[tr],y[tr,None]]),delimiter=",")
    open(os.path.join(TMP, "te-b.csv"),"w").write("0,1\n"*u.shape[1]+f"{y.min()!r},{y.max()!r}\n")
    o=json.loads(subprocess.run([os.environ.get("DPGAUSS", "./dpgauss"),"regress","--input",os.path.join(TMP, "te.csv"),"--target",str(u.shape[1]),"--bounds",os.path.join(TMP, "te-b.csv"),"--epsilon",eps,"--json","--insecure-seed",str(seed)],capture_output=True,text=True).stdout)
    pred=u[tr]@np.array(o["coefficients"])+o["intercept"]
    ols=OLS().fit(u[tr],y[tr]); base=np.mean((ols.predict(u[tr])-y[tr])**2)
    real=np.mean((pred-y[tr])**2)-base
    ratios.append(o["accuracy"]["expected"]/max(real,1e-300))
  print(name,eps,"stated/realised median %.2f  (q10 %.2f q90 %.2f)"%(np.median(ratios),np.quantile(ratios,.1),np.quantile(ratios,.9)),flush=True)
