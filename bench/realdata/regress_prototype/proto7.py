import numpy as np
src=open("proto3.py").read().split("def run")[0]
src=src.replace("X=np.hstack([l2clip(xs,Cx),np.ones((n,1))]); B2=Cx**2+1; B=np.sqrt(B2); Y=ys; By=1.0",
 """X=np.hstack([l2clip(xs,Cx),KC*Cx*np.ones((n,1))]); B2=Cx**2*(1+KC**2); B=np.sqrt(B2)
    global MY
    if YS>0:
        rm=rho*YS; rho=rho-rm; MY=float(np.clip(ys.mean()+rng.normal(0,2/n/np.sqrt(2*rm)),-1,1)); By=max(1-MY,1+MY)
    else: MY=0.0; By=1.0
    Y=ys-MY""")
src=src.replace("else: lam=max(E,2*E-w[0])","else: lam=E+sb*(np.sqrt(q)+np.sqrt(2*np.log(40)))")
exec(src)
r=open("proto3.py").read().split("def run")[1].split("for lab")[0].replace("np.ones((len(Xte),1))])@th)","KC*np.sqrt(Xte.shape[1])*np.ones((len(Xte),1))])@th+MY)")
exec("def run"+r)
for kc in [1.0,0.3]:
  for ys in [0,0.05,0.1,0.2]:
    KC=kc; YS=ys
    print(f"KC {kc} ys {ys}", run(mode="ada"))
